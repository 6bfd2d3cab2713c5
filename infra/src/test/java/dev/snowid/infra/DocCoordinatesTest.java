package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every dependency a doc names ({@code <dependency>} with groupId {@code dev.snowid}, or
 * {@code dev.snowid:<artifact>:<version>}), and every version it quotes as a jar prints it
 * ({@code snowid-agent 0.1.0-SNAPSHOT}), is a module of this build, at the build's version:
 * a user who pastes it after the README's install command gets what the doc describes.
 * scripts/release.sh moves the docs' versions with the POMs'.
 */
class DocCoordinatesTest {

    private static final Path ROOT = Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();
    private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);
    private static final Pattern COORDINATES = Pattern.compile("dev\\.snowid:(snowid-[a-z0-9-]+)(?::([^\\s`'\"<>)]+))?");
    private static final Pattern ARTIFACT_ID = Pattern.compile("<artifactId>([^<]+)</artifactId>");
    /** A version the docs quote as a jar says it, e.g. the agent's start-up line: {@code snowid-agent 0.1.0-SNAPSHOT}. */
    /** The version an answer of the function or runner carries ({@code GET /health}). */
    private static final Pattern VERSION_FIELD = Pattern.compile("\"version\":\"(\\d+\\.\\d+\\.\\d+[^\"]*)\"");
    private static final Pattern QUOTED_VERSION = Pattern.compile("\\b(snowid-[a-z0-9-]+) (\\d+\\.\\d+\\.\\d+[^\\s`'\"<>),;]*)");

    @Test
    void everyDocsDependencyIsAModuleAtTheBuildsVersion() throws IOException {
        String version = System.getProperty("snowid.version");
        Set<String> modules = moduleArtifactIds();
        assertTrue(modules.contains("snowid-client"), modules::toString);
        List<String> problems = new ArrayList<>();
        int found = 0;
        for (Path doc : docs()) {
            String text = Files.readString(doc, StandardCharsets.UTF_8);
            String name = ROOT.relativize(doc).toString();
            Matcher dependency = DEPENDENCY.matcher(text);
            while (dependency.find()) {
                String block = dependency.group(1);
                if (!tag(block, "groupId").equals("dev.snowid")) {
                    continue;
                }
                found++;
                check(name, tag(block, "artifactId"), tag(block, "version"), modules, version, problems);
            }
            Matcher coordinates = COORDINATES.matcher(text);
            while (coordinates.find()) {
                found++;
                check(name, coordinates.group(1), coordinates.group(2) == null ? "" : coordinates.group(2), modules, version, problems);
            }
            Matcher quoted = QUOTED_VERSION.matcher(text);
            while (quoted.find()) {
                found++;
                check(name, quoted.group(1), quoted.group(2), modules, version, problems);
            }
            Matcher answered = VERSION_FIELD.matcher(text);
            while (answered.find()) {
                if (!answered.group(1).equals(version)) {
                    problems.add(name + ": an answer with \"version\":\"" + answered.group(1) + "\", the build's is " + version);
                }
            }
        }
        assertTrue(found >= 2, "the client and integrations guides show their dependency; found " + found);
        assertEquals(List.of(), problems);
    }

    private static void check(String doc, String artifact, String version, Set<String> modules, String expected, List<String> problems) {
        if (!modules.contains(artifact)) {
            problems.add(doc + ": dev.snowid:" + artifact + " is no module of this build; the modules are " + modules);
        }
        if (!version.equals(expected)) {
            problems.add(doc + ": dev.snowid:" + artifact + " at version '" + version + "', the build's is " + expected);
        }
    }

    private static String tag(String block, String name) {
        Matcher value = Pattern.compile("<" + name + ">\\s*([^<]*?)\\s*</" + name + ">").matcher(block);
        return value.find() ? value.group(1) : "";
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> paths = Files.walk(ROOT.resolve("docs"))) {
            docs.addAll(paths.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
        }
        return docs;
    }

    /** Each POM's own artifactId: the first one after its parent's. */
    private static Set<String> moduleArtifactIds() throws IOException {
        Set<String> ids = new TreeSet<>();
        try (Stream<Path> paths = Files.walk(ROOT)) {
            for (Path pom : (Iterable<Path>) paths.filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
                    .filter(p -> !p.startsWith(ROOT.resolve("examples")))::iterator) { // users' projects, not modules
                String text = Files.readString(pom, StandardCharsets.UTF_8);
                int parentEnd = text.indexOf("</parent>");
                Matcher id = ARTIFACT_ID.matcher(text);
                if (id.find(Math.max(parentEnd, 0))) {
                    ids.add(id.group(1));
                }
            }
        }
        return ids;
    }
}
