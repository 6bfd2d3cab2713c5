package dev.snowid.local.sigv4;

import dev.snowid.testing.sigv4.AwsStandIns;
import dev.snowid.testing.sigv4.StandInStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link SignedLeasingApp} in its own JVM, with an environment that holds no AWS setting but the
 * ones given, and a home folder of its own (no ~/.aws of this machine's): so the credentials it
 * signs with come from the one source the test set up.
 */
public final class WorkloadJvm {

    private WorkloadJvm() {
    }

    /** Runs it to its end (with a deadline) and returns its output; fails when it exits with another status than 0. */
    public static String run(String leaseUrl, Duration runFor, Path home, Map<String, String> awsEnvironment) {
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"), SignedLeasingApp.class.getName(),
                leaseUrl, AwsStandIns.REGION, Long.toString(runFor.toMillis())));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("AWS_") || name.startsWith("SNOWID_"));
        environment.put("HOME", home.toString());
        environment.putIfAbsent("AWS_EC2_METADATA_DISABLED", "true"); // unless the test serves IMDS: never 169.254.169.254
        environment.putAll(awsEnvironment);
        try {
            Path output = Files.createTempFile("workload-", ".log");
            builder.redirectOutput(output.toFile());
            Process process = builder.start();
            long allowed = runFor.toMillis() + 60_000;
            if (!process.waitFor(allowed, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                throw new AssertionError("the workload JVM did not end within " + allowed + " ms: " + Files.readString(output));
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            Files.deleteIfExists(output);
            if (process.exitValue() != 0) {
                throw new AssertionError("the workload JVM exited with " + process.exitValue() + ": " + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
