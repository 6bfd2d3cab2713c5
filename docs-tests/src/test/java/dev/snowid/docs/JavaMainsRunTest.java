package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.local.LocalSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every Java block of README.md and docs/ with a {@code main} method runs, in its own JVM, against
 * a real local runner (the docs' {@code http://localhost:8080} pointed at it, and
 * {@code SNOWID_LEASE_SECRET} the secret the docs start it with): it exits 0 within a minute and
 * prints, first, an ID that decodes; and, quiet by default, at most one log record on stderr (the
 * lease granted at start-up: no audit lines, which log below INFO).
 */
class JavaMainsRunTest {

    private static final String DOC_BASE = "http://localhost:8080";
    /** The line of a java.util.logging record (SimpleFormatter) that names its level. */
    private static final Pattern JUL_RECORD = Pattern.compile("^(SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST): ");
    private static LeaseApi runner;

    @BeforeAll
    static void startRunner() {
        runner = LeaseApi.startAsTheReadmeDoes(DynamoDbEngine.newTable("doc-mains"), ConsoleBlocksRunTest.DOC_SECRET);
    }

    @AfterAll
    static void stopRunner() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void everyDocMainRunsAgainstALocalRunnerAndPrintsAnId() throws Exception {
        List<String> problems = new ArrayList<>();
        int ran = 0;
        for (Path doc : DocBlock.docs()) {
            List<DocBlock> units = JavaBlocksCompileTest.completeUnits(doc);
            List<String> mains = JavaBlocksCompileTest.mainClasses(units);
            if (mains.isEmpty()) {
                continue;
            }
            Path classes = JavaBlocksCompileTest.compile(units, text -> text.replace(DOC_BASE, runner.baseUri().toString()), problems);
            for (String main : mains) {
                ran++;
                run(doc, main, classes, problems);
            }
        }
        assertTrue(ran > 0, "no Java block with a main method in the docs");
        assertTrue(problems.isEmpty(), () -> problems.size() + " doc main(s) failed:\n" + String.join("\n", problems));
    }

    private static void run(Path doc, String main, Path classes, List<String> problems) throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder child = new ProcessBuilder(java, "-cp", classes + File.pathSeparator + System.getProperty("java.class.path"), main)
                .redirectErrorStream(false);
        child.environment().put(LocalSettings.LOCAL_LEASE_SECRET, ConsoleBlocksRunTest.DOC_SECRET);
        File errors = File.createTempFile("snowid-doc-main", ".err");
        errors.deleteOnExit();
        child.redirectError(errors);
        Process process = child.start();
        String where = DocBlock.root().relativize(doc) + " (" + main + ")";
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            problems.add(where + ": did not finish within 60 s");
            return;
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (process.exitValue() != 0) {
            List<String> err = Files.readAllLines(errors.toPath(), StandardCharsets.UTF_8);
            problems.add(where + ": exited with " + process.exitValue() + "; printed «" + out + "»; stderr ends «"
                    + String.join("\n", err.subList(Math.max(0, err.size() - 5), err.size())) + "»");
            return;
        }
        List<String> err = Files.readAllLines(errors.toPath(), StandardCharsets.UTF_8);
        long records = err.stream().filter(line -> JUL_RECORD.matcher(line).find()).count();
        if (records > 1 || err.stream().anyMatch(line -> line.contains("\"audit\":\"lease\""))) {
            problems.add(where + ": logged " + records + " records on stderr, at most 1 by default: «" + String.join("\n", err) + "»");
        }
        String first = out.split("\\s+", 2)[0];
        try {
            SnowflakeCodec.TWITTER.decode(Long.parseLong(first));
        } catch (RuntimeException e) {
            problems.add(where + ": printed «" + out + "», which does not start with an ID (" + e.getMessage() + ")");
        }
    }
}
