package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.snowid.cdk.SnowidServiceProps;
import dev.snowid.testing.engine.PathCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * AWS's CloudFormation linter on the template (resource schemas, the SAM transform, best
 * practices), when {@code cfn-lint} is on PATH. Without it the lint does not run and the build
 * says so; {@value #REQUIRED_VARIABLE}=1 (CI sets it) makes a missing cfn-lint an error.
 */
class TemplateLintTest {

    static final String REQUIRED_VARIABLE = "SNOWID_TEST_REQUIRE_CFN_LINT";

    @TestFactory
    Stream<DynamicTest> cfnLintFindsNothingInTheTemplate() throws java.io.IOException {
        Optional<Path> cfnLint = PathCommand.find("cfn-lint");
        if (cfnLint.isEmpty()) {
            String missing = "cfn-lint DID NOT RUN on infra/template.yaml: no cfn-lint on PATH (`pip install cfn-lint`)";
            if ("1".equals(System.getenv(REQUIRED_VARIABLE))) {
                throw new IllegalStateException(missing + ", and " + REQUIRED_VARIABLE + "=1 requires it");
            }
            System.out.println("[snowid] " + missing + ".");
            return Stream.empty();
        }
        // The regional stacks' template, the claim registry's, and what the CDK construct synthesizes.
        Path synthesized = CdkSynthesis.of("snowid-lint", SnowidServiceProps.builder().datacenters("0-3")
                .leaseSecretSha256("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08").build()).template();
        return Stream.of(Template.location(), managedInstancesOn(), Template.location().resolveSibling("registry.yaml"), synthesized)
                .map(file ->
                dynamicTest("cfn-lint " + file.getFileName(), () -> {
            Path output = Files.createTempFile("cfn-lint-", ".txt");
            try {
                Process lint = new ProcessBuilder(cfnLint.get().toString(), file.toString())
                        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
                if (!lint.waitFor(180, TimeUnit.SECONDS)) {
                    lint.destroyForcibly();
                    throw new AssertionError("cfn-lint did not finish within 180 s");
                }
                String findings = Files.readString(output, StandardCharsets.UTF_8);
                assertEquals(0, lint.exitValue(), "cfn-lint found:\n" + findings);
                assertEquals("", findings.strip(), "cfn-lint printed findings");
            } finally {
                Files.deleteIfExists(output);
            }
        }));
    }

    /**
     * The template with ManagedInstances=on by default (and a VPC to put it in), beside the
     * original so that its CodeUri resolves the same: cfn-lint resolves parameters by their
     * defaults, so this lints the capacity provider and ManagedIdsFunction as a stack with the
     * option on gets them.
     */
    static Path managedInstancesOn() throws java.io.IOException {
        String text = Files.readString(Template.location(), StandardCharsets.UTF_8);
        String on = once(once(once(text,
                "    AllowedValues: [\"on\", \"off\"]\n    Default: \"off\"\n",
                "    AllowedValues: [\"on\", \"off\"]\n    Default: \"on\"\n"),
                "(at most 16), or empty\n    Default: \"\"\n", "(at most 16), or empty\n    Default: \"subnet-0abc,subnet-0def\"\n"),
                "(at most 5), or empty\n    Default: \"\"\n", "(at most 5), or empty\n    Default: \"sg-0123456789abcdef0\"\n");
        Path file = Template.location().resolveSibling("target").resolve("template-managed-instances.yaml");
        Files.createDirectories(file.getParent());
        return Files.writeString(file, on, StandardCharsets.UTF_8);
    }

    private static String once(String text, String what, String with) {
        int at = text.indexOf(what);
        if (at < 0 || text.indexOf(what, at + 1) >= 0) {
            throw new AssertionError("expected exactly one '" + what.strip() + "' in the template");
        }
        return text.replace(what, with);
    }
}
