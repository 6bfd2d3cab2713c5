package dev.snowid.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines of a module's Java source between {@code // [docs:name]} and {@code // [/docs:name]}:
 * what a doc's {@code <!-- code: name -->} block shows, word for word (indentation aside).
 */
record MarkedRegion(Path file, int line, String name, String text) {

    private static final Pattern START = Pattern.compile("^\\s*// \\[docs:([a-z0-9-]+)]\\s*$");
    private static final Set<String> NOT_SOURCES = Set.of("target", "node_modules", ".git");

    /** Every marked region of the repository's modules ({@code <module>/src/**.java}), by name. */
    static Map<String, MarkedRegion> all(List<String> problems) {
        Map<String, MarkedRegion> regions = new TreeMap<>();
        for (Path source : sources(DocBlock.root())) {
            for (MarkedRegion region : of(source, problems)) {
                MarkedRegion other = regions.putIfAbsent(region.name, region);
                if (other != null) {
                    problems.add(region.where() + ": region '" + region.name + "' is marked twice, also at " + other.where());
                }
            }
        }
        return regions;
    }

    static List<MarkedRegion> of(Path source, List<String> problems) {
        List<String> lines = DocBlock.lines(source);
        List<MarkedRegion> regions = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher start = START.matcher(lines.get(i));
            if (!start.matches()) {
                continue;
            }
            String name = start.group(1);
            String end = "// [/docs:" + name + "]";
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).trim().equals(end)) {
                j++;
            }
            if (j == lines.size()) {
                problems.add(DocBlock.where(source, i + 1) + ": no " + end);
                continue;
            }
            regions.add(new MarkedRegion(source, i + 1, name, outdented(lines.subList(i + 1, j))));
            i = j;
        }
        return regions;
    }

    String where() {
        return DocBlock.where(file, line);
    }

    /** The Java files under a {@code src} folder of the repository; build output and installed packages are not entered. */
    private static List<Path> sources(Path root) {
        List<Path> sources = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    return NOT_SOURCES.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (file.toString().endsWith(".java") && underSrc(root.relativize(file))) {
                        sources.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Collections.sort(sources);
        return sources;
    }

    private static boolean underSrc(Path relative) {
        for (Path part : relative) {
            if (part.toString().equals("src")) {
                return true;
            }
        }
        return false;
    }

    private static String outdented(List<String> lines) {
        int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder text = new StringBuilder();
        for (String line : lines) {
            text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return text.toString();
    }
}
