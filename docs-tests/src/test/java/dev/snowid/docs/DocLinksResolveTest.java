package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's Markdown (README.md, CHANGELOG.md, docs/, examples/)
 * leads somewhere: to a file or folder of the repository, and a {@code #anchor} to a heading
 * of that page as GitHub names it. No link leaves the repository for the machine it was written
 * on: none climbs above the root, none is an absolute path. Web addresses are not fetched.
 */
class DocLinksResolveTest {

    private static final Pattern INLINE = Pattern.compile("!?\\[[^\\]]*]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern DEFINITION = Pattern.compile("^\\s{0,3}\\[[^\\]]+]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern HREF = Pattern.compile("\\b(?:href|src)=\"([^\"]+)\"");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern WEB = Pattern.compile("^(?:https?|mailto):.*", Pattern.CASE_INSENSITIVE);
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");

    @Test
    void everyRelativeLinkAndAnchorResolvesInsideTheRepository() {
        Path root = DocBlock.root();
        List<String> problems = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        int links = 0;
        for (Path page : pages(root)) {
            List<String> lines = DocBlock.lines(page);
            boolean inFence = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().startsWith("```")) {
                    inFence = !inFence;
                    continue;
                }
                if (inFence) {
                    continue;
                }
                for (String target : targets(line)) {
                    links++;
                    String problem = problem(root, page, target, anchors);
                    if (problem != null) {
                        problems.add(DocBlock.where(page, i + 1) + ": (" + target + ") " + problem);
                    }
                }
            }
        }
        assertTrue(links > 50, "only " + links + " links found: is the link pattern still right?");
        assertTrue(problems.isEmpty(), () -> problems.size() + " link(s) that lead nowhere:\n" + String.join("\n", problems));
    }

    @Test
    void anchorsAreGitHubs() {
        assertEquals("run-it-locally--one-command", slug("Run it locally — one command"));
        assertEquals("when-no-id-can-be-issued-snowidonunavailable", slug("When no ID can be issued: `snowid.onUnavailable`"));
        assertEquals("iam-the-workloads-own-roles", slug("IAM: the workloads' own roles"));
        assertEquals("2-same-shape-hutool-mybatis-plus-twitters-leaf", slug("2. Same shape (Hutool, MyBatis-Plus, Twitter's, Leaf)"));
        assertEquals("the-http-api", slug("The [HTTP API](api.md)"));
        assertEquals("snake_case-stays", slug("snake_case stays"));
    }

    /** README.md, CHANGELOG.md, docs/*.md and examples' Markdown. */
    private static List<Path> pages(Path root) {
        List<Path> pages = new ArrayList<>(DocBlock.docs());
        pages.add(root.resolve("CHANGELOG.md"));
        try (Stream<Path> examples = Files.walk(root.resolve("examples"))) {
            examples.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
                    .sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    /** The link targets on a line outside fenced blocks; code spans are text, not links. */
    static List<String> targets(String line) {
        String text = line.replaceAll("`[^`]*`", "");
        List<String> targets = new ArrayList<>();
        for (Pattern pattern : List.of(INLINE, HREF)) {
            Matcher link = pattern.matcher(text);
            while (link.find()) {
                targets.add(link.group(1));
            }
        }
        Matcher definition = DEFINITION.matcher(text);
        if (definition.matches()) {
            targets.add(definition.group(1));
        }
        return targets;
    }

    /** What is wrong with a link from this page, or null when it resolves. */
    private static String problem(Path root, Path page, String target, Map<Path, Set<String>> anchors) {
        if (WEB.matcher(target).matches()) {
            return null;
        }
        if (target.startsWith("/") || target.startsWith("~") || target.startsWith("\\") || SCHEME.matcher(target).matches()) {
            return "is an absolute path or address of some machine: link relative to this page, inside the repository";
        }
        int hash = target.indexOf('#');
        String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : URLDecoder.decode(target.substring(hash + 1), StandardCharsets.UTF_8);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!resolved.startsWith(root)) {
            return "climbs out of the repository";
        }
        if (!Files.exists(resolved)) {
            return root.relativize(resolved) + " does not exist";
        }
        if (anchor == null || !resolved.toString().endsWith(".md")) {
            return null;
        }
        Set<String> known = anchors.computeIfAbsent(resolved, DocLinksResolveTest::anchors);
        return known.contains(anchor) ? null
                : root.relativize(resolved) + " has no heading #" + anchor + "; its anchors: " + String.join(", ", known);
    }

    /** A page's anchors, as GitHub makes them: one per heading (a repeated one numbered -1, -2, …), and HTML ids. */
    static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : DocBlock.lines(page)) {
            if (line.strip().startsWith("```")) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(2));
                int times = seen.merge(slug, 1, Integer::sum);
                anchors.add(times == 1 ? slug : slug + "-" + (times - 1));
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
        }
        return anchors;
    }

    /** GitHub's anchor for a heading: its text, lower case, without punctuation, spaces as hyphens. */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
    }
}
