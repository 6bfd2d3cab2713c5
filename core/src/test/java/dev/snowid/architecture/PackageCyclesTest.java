package dev.snowid.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cycle reader on source trees with cycles planted in them, and on trees that only look like they have one. */
class PackageCyclesTest {

    @TempDir
    Path root;

    @Test
    void aCycleThroughImportsIsFoundWithTheFilesThatMakeIt() throws IOException {
        write("a/api/Api.java", "package a.api;\nimport a.telemetry.Log;\nclass Api { Log log; }\n");
        write("a/telemetry/Log.java", "package a.telemetry;\nimport a.api.Api;\nclass Log { Api api; }\n");
        write("a/json/Json.java", "package a.json;\nimport a.api.Api;\nclass Json { Api api; }\n");

        List<PackageCycles.Cycle> cycles = PackageCycles.in(root);

        assertEquals(1, cycles.size(), cycles::toString);
        assertEquals(Set.of("a.api", "a.telemetry"), cycles.get(0).packages(), "a.json only depends on the cycle");
        assertEquals(List.of(new PackageCycles.Edge("a.api", "a.telemetry", Path.of("a/api/Api.java").toString()),
                new PackageCycles.Edge("a.telemetry", "a.api", Path.of("a/telemetry/Log.java").toString())), cycles.get(0).edges());
    }

    @Test
    void aConstantUsedByItsQualifiedNameOrAStaticImportIsAnEdge() throws IOException {
        write("b/Cli.java", "package b;\nimport b.cli.Decode;\npublic final class Cli { public static final String USAGE = \"u\"; }\n");
        write("b/cli/Decode.java", "package b.cli;\npublic class Decode { String u = b.Cli.USAGE; }\n");
        write("c/Main.java", "package c;\nimport c.run.Node;\nclass Main { Node n; }\n");
        write("c/run/Node.java", "package c.run;\nimport static c.Main.NAME;\nclass Node { }\n");

        assertEquals(List.of(Set.of("b", "b.cli"), Set.of("c", "c.run")), packagesOf(PackageCycles.in(root)));
    }

    @Test
    void aLongerCycleIsOneCycle() throws IOException {
        write("d/one/One.java", "package d.one;\nimport d.two.*;\nclass One { }\n");
        write("d/two/Two.java", "package d.two;\nclass Two { d.three.Three three; }\n");
        write("d/three/Three.java", "package d.three;\nimport d.one.One;\nclass Three { }\n");

        assertEquals(List.of(Set.of("d.one", "d.two", "d.three")), packagesOf(PackageCycles.in(root)));
    }

    @Test
    void namesInCommentsAndLiteralsAndOtherTreesAreNoEdges() throws IOException {
        write("e/api/Api.java", "package e.api;\nimport e.log.Log;\nclass Api { Log log; }\n");
        write("e/log/Log.java", "package e.log;\n/** Written by {@link e.api.Api}. */\nclass Log {\n"
                + "    // e.api.Api calls this\n    String where = \"e.api.Api\";\n    char quote = '\"';\n"
                + "    String block = \"\"\"\n        e.api.Api\n        \"\"\";\n    java.util.List<String> lines;\n}\n");

        assertTrue(PackageCycles.in(root).isEmpty(), () -> PackageCycles.in(root).toString());
        assertTrue(PackageCycles.in(root.resolve("no-such-tree")).isEmpty());
    }

    private void write(String file, String source) throws IOException {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.write(path, source.getBytes(StandardCharsets.UTF_8));
    }

    private static List<Set<String>> packagesOf(List<PackageCycles.Cycle> cycles) {
        return cycles.stream().map(PackageCycles.Cycle::packages).sorted((a, b) -> a.toString().compareTo(b.toString())).toList();
    }
}
