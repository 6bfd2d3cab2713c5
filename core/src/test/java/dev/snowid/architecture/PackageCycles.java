package dev.snowid.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The package cycles of one source tree, read from the sources, so that one test can check every
 * module without their class files (jdeps or ArchUnit would need each module built first). A
 * file depends on the packages it imports and on those it names fully qualified in code
 * (comments and literals are left out); only packages of the same tree count.
 */
public final class PackageCycles {

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** {@code import a.b.C;}, {@code import static a.b.C.m;}, {@code import a.b.*;}: the package is the lower-case head. */
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(?:static\\s+)?([\\w.]+?)(?:\\.[A-Z][\\w.]*|\\.\\*)?\\s*;",
            Pattern.MULTILINE);
    /**
     * A qualified name in code, {@code a.b.C}: lower-case segments, then a type. A variable's field
     * ({@code settings.ROLE}) reads the same, but counts only if the variable is named as a whole package of the tree.
     */
    private static final Pattern QUALIFIED = Pattern.compile("(?<![\\w.])([a-z]\\w*(?:\\.[a-z]\\w*)*)\\.[A-Z]");

    /** One dependency between two packages, and a file that makes it. */
    public record Edge(String from, String to, String file) {
        @Override
        public String toString() {
            return from + " -> " + to + " (" + file + ")";
        }
    }

    /** The packages of one cycle (a strongly connected set), and the edges between them. */
    public record Cycle(Set<String> packages, List<Edge> edges) {
        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(String.join(" <-> ", packages));
            for (Edge edge : edges) {
                text.append("\n    ").append(edge);
            }
            return text.toString();
        }
    }

    private PackageCycles() {
    }

    /** The cycles among the packages of the {@code .java} files under {@code sourceRoot}; none if it does not exist. */
    public static List<Cycle> in(Path sourceRoot) {
        Map<String, Map<String, String>> edges = edges(sourceRoot);
        List<Cycle> cycles = new ArrayList<>();
        for (Set<String> component : new Components(edges).strong()) {
            if (component.size() > 1) {
                List<Edge> inside = new ArrayList<>();
                for (String from : component) {
                    edges.get(from).forEach((to, file) -> {
                        if (component.contains(to)) {
                            inside.add(new Edge(from, to, file));
                        }
                    });
                }
                cycles.add(new Cycle(component, inside));
            }
        }
        return cycles;
    }

    /** Package to package, with the first file (relative to the root) that makes each edge. */
    static Map<String, Map<String, String>> edges(Path sourceRoot) {
        Map<Path, String> files = new TreeMap<>();
        Map<Path, String> packages = new HashMap<>();
        if (Files.isDirectory(sourceRoot)) {
            try (Stream<Path> walk = Files.walk(sourceRoot)) {
                walk.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> {
                    String code = withoutCommentsAndLiterals(read(f));
                    Matcher declared = PACKAGE.matcher(code);
                    packages.put(f, declared.find() ? declared.group(1) : "");
                    files.put(f, code);
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Set<String> known = new TreeSet<>(packages.values());
        Map<String, Map<String, String>> edges = new TreeMap<>();
        known.forEach(p -> edges.put(p, new TreeMap<>()));
        files.forEach((file, code) -> {
            String from = packages.get(file);
            String name = sourceRoot.relativize(file).toString();
            for (Pattern pattern : new Pattern[] {IMPORT, QUALIFIED}) {
                Matcher used = pattern.matcher(code);
                while (used.find()) {
                    String to = used.group(1);
                    if (!to.equals(from) && known.contains(to)) {
                        edges.get(from).putIfAbsent(to, name);
                    }
                }
            }
        });
        return edges;
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The code with comments, string, text-block and char literals blanked (line breaks kept), so
     * that a qualified name in a Javadoc link or a message is no dependency.
     */
    static String withoutCommentsAndLiterals(String source) {
        StringBuilder code = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            String end;
            if (source.startsWith("//", i)) {
                end = "\n";
            } else if (source.startsWith("/*", i)) {
                end = "*/";
            } else if (source.startsWith("\"\"\"", i)) {
                end = "\"\"\"";
                i += 2;
            } else if (c == '"' || c == '\'') {
                end = String.valueOf(c);
            } else {
                code.append(c);
                i++;
                continue;
            }
            int j = i + 1;
            while (j < n && !source.startsWith(end, j)) {
                // An escaped quote does not end a literal; comments have no escapes.
                j += (end.charAt(0) == '"' || end.equals("'")) && source.charAt(j) == '\\' ? 2 : 1;
            }
            j = Math.min(n, j + (end.equals("\n") ? 0 : end.length()));
            for (int k = i; k < j; k++) {
                code.append(source.charAt(k) == '\n' ? '\n' : ' ');
            }
            code.append(' ');
            i = j;
        }
        return code.toString();
    }

    /** Tarjan's strongly connected components, iterative (no recursion depth to worry about). */
    private static final class Components {
        private final Map<String, Map<String, String>> edges;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<Set<String>> found = new ArrayList<>();

        Components(Map<String, Map<String, String>> edges) {
            this.edges = edges;
        }

        List<Set<String>> strong() {
            for (String node : edges.keySet()) {
                if (!index.containsKey(node)) {
                    visit(node);
                }
            }
            return found;
        }

        /** A node being visited, and the neighbours it has yet to look at. */
        private record Frame(String node, Iterator<String> next) {
        }

        private void visit(String root) {
            Deque<Frame> work = new ArrayDeque<>();
            work.push(enter(root));
            while (!work.isEmpty()) {
                Frame frame = work.peek();
                String node = frame.node();
                if (frame.next().hasNext()) {
                    String to = frame.next().next();
                    if (!index.containsKey(to)) {
                        work.push(enter(to));
                    } else if (onStack.contains(to)) {
                        low.put(node, Math.min(low.get(node), index.get(to)));
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    String parent = work.peek().node();
                    low.put(parent, Math.min(low.get(parent), low.get(node)));
                }
                if (low.get(node).equals(index.get(node))) {
                    Set<String> component = new TreeSet<>();
                    String member;
                    do {
                        member = stack.pop();
                        onStack.remove(member);
                        component.add(member);
                    } while (!member.equals(node));
                    found.add(component);
                }
            }
        }

        private Frame enter(String node) {
            index.put(node, index.size());
            low.put(node, index.get(node));
            stack.push(node);
            onStack.add(node);
            return new Frame(node, List.copyOf(edges.get(node).keySet()).iterator());
        }
    }
}
