package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each folder of {@code examples/} is a project a user could have written: it depends on snowid
 * through its coordinates at this build's version, names the versions of the libraries this
 * build tests with (MyBatis-Plus, Hibernate, H2, Hutool, the AWS SDK and CDK, Spring Boot), has a
 * README, and {@code examples/run-all.sh} (which CI runs) runs it.
 */
class ExamplePomsTest {

    private static final Pattern COORDINATES = Pattern.compile("<(dependency|parent|artifactItem)>(.*?)</\\1>", Pattern.DOTALL);

    @Test
    void everyExampleUsesThisBuildsVersionsAndIsRunByRunAll() throws IOException {
        Path examples = DocBlock.root().resolve("examples");
        String runAll = Files.readString(examples.resolve("run-all.sh"), StandardCharsets.UTF_8);
        Map<String, String> tested = Map.of(
                "com.baomidou:mybatis-plus-core", required("mybatisPlusVersion"),
                "org.hibernate.orm:hibernate-core", required("hibernateVersion"),
                "com.h2database:h2", required("h2Version"),
                "cn.hutool:hutool-core", required("hutoolVersion"),
                "software.amazon.awssdk:bom", required("awssdkVersion"),
                "software.amazon.awscdk:aws-cdk-lib", required("awsCdkLibVersion"),
                "org.springframework.boot:spring-boot-starter-parent", bootThreeVersion());
        String snowid = required("snowidVersion");
        List<String> problems = new ArrayList<>();
        List<Path> folders;
        try (Stream<Path> list = Files.list(examples)) {
            folders = list.filter(Files::isDirectory).sorted().collect(Collectors.toList());
        }
        assertTrue(folders.size() >= 3, "examples: " + folders);
        for (Path folder : folders) {
            String name = folder.getFileName().toString();
            if (!Files.isRegularFile(folder.resolve("pom.xml")) || !Files.isRegularFile(folder.resolve("README.md"))) {
                problems.add("examples/" + name + " has no pom.xml or no README.md");
                continue;
            }
            if (!runAll.contains(name)) {
                problems.add("examples/run-all.sh does not run examples/" + name);
            }
            String pom = Files.readString(folder.resolve("pom.xml"), StandardCharsets.UTF_8);
            int onSnowid = 0;
            Matcher coordinates = COORDINATES.matcher(pom);
            while (coordinates.find()) {
                String block = coordinates.group(2);
                String id = tag(block, "groupId") + ":" + tag(block, "artifactId");
                String version = tag(block, "version");
                String expected = id.startsWith("dev.snowid:") ? snowid : tested.get(id);
                onSnowid += id.startsWith("dev.snowid:") ? 1 : 0;
                if (expected != null && !version.isEmpty() && !version.equals(expected)) {
                    problems.add("examples/" + name + "/pom.xml: " + id + " at " + version + ", the build's is " + expected);
                }
            }
            if (onSnowid == 0) {
                problems.add("examples/" + name + "/pom.xml names no dev.snowid artifact");
            }
        }
        assertEquals(List.of(), problems);
    }

    /** The Spring Boot 3 line the starter's tests run (spring-boot/tests-boot3). */
    private static String bootThreeVersion() throws IOException {
        String pom = Files.readString(DocBlock.root().resolve("spring-boot/tests-boot3/pom.xml"), StandardCharsets.UTF_8);
        String version = tag(pom, "spring-boot.version");
        assertTrue(!version.isEmpty(), "spring-boot/tests-boot3/pom.xml sets no spring-boot.version");
        return version;
    }

    private static String tag(String xml, String name) {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">\\s*([^<]*?)\\s*</" + Pattern.quote(name) + ">").matcher(xml);
        return value.find() ? value.group(1) : "";
    }

    private static String required(String property) {
        String value = System.getProperty("snowid.test." + property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("-Dsnowid.test." + property + " is not set (the Maven build sets it)");
        }
        return value;
    }
}
