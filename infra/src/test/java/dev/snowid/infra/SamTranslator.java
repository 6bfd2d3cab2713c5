package dev.snowid.infra;

import dev.snowid.testing.engine.PathCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The SAM transform that CloudFormation applies to {@code Transform: AWS::Serverless-2016-10-31},
 * run locally with AWS's own translator (the {@code aws-sam-translator} Python package, which
 * cfn-lint and moto's server depend on) through {@code src/test/python/sam_translate.py}.
 */
final class SamTranslator {

    static final String INSTALL = "the SAM translator comes with cfn-lint: `pip install cfn-lint` (moto[server] installs it too)";

    private SamTranslator() {
    }

    /** The template as plain CloudFormation, its functions' code at {@code codeUri} (an s3:// URI). */
    static Template translate(Path template, String codeUri, String region) {
        Path python = PathCommand.find("python3")
                .orElseThrow(() -> new IllegalStateException("no python3 on PATH for the SAM translator; " + INSTALL));
        Path script = Path.of(System.getProperty("snowid.samTranslate", "src/test/python/sam_translate.py")).toAbsolutePath();
        try {
            Path out = Files.createTempFile("snowid-translated-", ".json");
            Path err = Files.createTempFile("snowid-translate-", ".log");
            try {
                Process process = new ProcessBuilder(python.toString(), script.toString(), template.toString(), codeUri, region)
                        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!process.waitFor(120, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException("the SAM translator did not finish within 120 s");
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException("the SAM translator failed (exit " + process.exitValue() + "; " + INSTALL
                            + "):\n" + Files.readString(err, StandardCharsets.UTF_8));
                }
                Map<String, Object> translated = CloudFormationYaml.parse(Files.readString(out, StandardCharsets.UTF_8));
                return new Template(translated);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run the SAM translator: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while translating the template", e);
        }
    }
}
