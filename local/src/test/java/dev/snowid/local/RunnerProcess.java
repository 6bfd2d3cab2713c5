package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.snowid.dynalite.Dynalite;
import dev.snowid.dynalite.EngineCredential;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The local runner as a user runs it: its own JVM ({@code java … LocalRunner}, the jar's
 * Main-Class), started in a given working directory, talked to over HTTP, killed for real.
 */
final class RunnerProcess implements AutoCloseable {

    static final String SECRET = "process-test-0e63d83ed06595a7137f6a6c1e66ca913795e1d6120fa515e5389a1d92b70079";
    private static final Pattern ENGINE = Pattern.compile("snowid local: dynalite \\(pid \\d+\\) on (http://127\\.0\\.0\\.1:\\d+), tables on disk in (\\S+)/tables;");
    private static final Pattern READY = Pattern.compile("ready on (http://localhost:\\d+) — lease table '[^']+' on the runner's own dynalite");

    private final Process process;
    private final Thread reader;
    private final List<String> output = new ArrayList<>();
    /** Every engine seen, so that close() can stop one the test left orphaned. */
    private final List<ProcessHandle> enginesSeen = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private URI base;
    private URI engineEndpoint;
    private Path folder;

    private RunnerProcess(Process process) {
        this.process = process;
        this.reader = new Thread(this::readOutput, "runner-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts a runner from this build's classes on a free port in {@code workingDirectory} with
     * these extra variables, and waits for its ready line.
     */
    static RunnerProcess start(Path workingDirectory, Map<String, String> variables) {
        return start(List.of("-cp", System.getProperty("java.class.path"), LocalRunner.class.getName()), workingDirectory, variables);
    }

    /** The same with {@code java -jar <jar>}. */
    static RunnerProcess startJar(Path jar, Path workingDirectory, Map<String, String> variables) {
        return start(List.of("-jar", jar.toString()), workingDirectory, variables);
    }

    private static RunnerProcess start(List<String> javaArguments, Path workingDirectory, Map<String, String> variables) {
        RunnerProcess runner = launch(javaArguments, workingDirectory, variables);
        runner.awaitReady();
        return runner;
    }

    /** {@code LocalRunner registry}, a local claim registry, once it has printed the variables a runner needs. */
    static RunnerProcess startRegistry(Path workingDirectory, Map<String, String> variables) {
        RunnerProcess registry = launch(List.of("-cp", System.getProperty("java.class.path"), LocalRunner.class.getName(), "registry"),
                workingDirectory, variables);
        registry.awaitOutput("export ", Duration.ofSeconds(60));
        return registry;
    }

    /** A runner that is expected to stop by itself (a bad setting): its output once it has. */
    static String runToExit(Path workingDirectory, Map<String, String> variables) {
        return runToExit(List.of("-cp", System.getProperty("java.class.path"), LocalRunner.class.getName()), workingDirectory, variables);
    }

    /** The same with {@code java -jar <jar>}. */
    static String runJarToExit(Path jar, Path workingDirectory, Map<String, String> variables) {
        return runToExit(List.of("-jar", jar.toString()), workingDirectory, variables);
    }

    private static String runToExit(List<String> javaArguments, Path workingDirectory, Map<String, String> variables) {
        try (RunnerProcess runner = launch(javaArguments, workingDirectory, variables)) {
            await(() -> !runner.process.isAlive(), Duration.ofSeconds(60), "the runner stops by itself");
            assertTrue(runner.process.exitValue() != 0, "it failed: " + runner.output());
            await(() -> runner.reader.getState() == Thread.State.TERMINATED, Duration.ofSeconds(5), "its output is read in full");
            return runner.output();
        }
    }

    private static RunnerProcess launch(List<String> javaArguments, Path workingDirectory, Map<String, String> variables) {
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(javaArguments);
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile()).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("SNOWID_"));
        builder.environment().put("SNOWID_PORT", "0");
        builder.environment().put("SNOWID_LEASE_SECRET", SECRET);
        builder.environment().putAll(variables);
        try {
            return new RunnerProcess(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady() {
        awaitOutput("ready on ", Duration.ofSeconds(60));
        Matcher ready = READY.matcher(output());
        assertTrue(ready.find(), "the ready line names the port and the engine: " + output());
        base = URI.create(ready.group(1));
        Matcher engine = ENGINE.matcher(output());
        assertTrue(engine.find(), "a line before it names the engine's endpoint and folder: " + output());
        engineEndpoint = URI.create(engine.group(1));
        folder = Paths.get(engine.group(2));
        engine();
    }

    private void readOutput() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                synchronized (output) {
                    output.add(line);
                }
            }
        } catch (IOException closed) {
            // The process is gone.
        }
    }

    String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    void awaitOutput(String text, Duration within) {
        await(() -> output().contains(text) || !process.isAlive(), within, "output containing '" + text + "'");
        assertTrue(output().contains(text), "expected '" + text + "' in the runner's output:\n" + output());
    }

    /** The port the runner serves on. */
    int port() {
        return base.getPort();
    }

    URI engineEndpoint() {
        return engineEndpoint;
    }

    /** A client of the runner's engine, as the runner's own: with the credential from its folder. */
    DynamoDbClient engineClient() {
        return LeaseTableClient.builder().endpoint(engineEndpoint).interceptor(new EngineCredentialHeader(EngineCredential.read(folder))).build();
    }

    /** The folder the runner's engine keeps its tables in. */
    Path folder() {
        return folder;
    }

    Process process() {
        return process;
    }

    /** The node process serving the runner's tables (the runner's only child), waiting a little for a starting one. */
    ProcessHandle engine() {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<ProcessHandle> engines = engines();
        while (engines.size() != 1 && System.nanoTime() < deadline) {
            pause(20);
            engines = engines();
        }
        List<ProcessHandle> found = engines;
        assertTrue(found.size() == 1, () -> "one dynalite under the runner: " + found + ", all: "
                + process.descendants().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList()
                + "; output:\n" + output());
        enginesSeen.add(found.get(0));
        return found.get(0);
    }

    private List<ProcessHandle> engines() {
        return process.descendants().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().orElse("").contains(Dynalite.CHILD_SCRIPT)).toList();
    }

    HttpResponse<String> send(String method, String pathAndQuery, boolean withSecret, String body) {
        return send(method, pathAndQuery, withSecret ? "Bearer " + SECRET : null, body);
    }

    /** The request with this {@code Authorization} (none when null). */
    HttpResponse<String> send(String method, String pathAndQuery, String authorization, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Polls {@code condition} every 20 ms until it holds, failing after {@code within}. */
    static void await(BooleanSupplier condition, Duration within, String what) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("not within " + within + ": " + what);
            }
            pause(20);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Kills the runner; its engine then exits and deletes the runner's folder by itself. One that
     * has not within seconds is killed too: a test never leaves processes behind.
     */
    @Override
    public void close() {
        List<ProcessHandle> engines = new ArrayList<>(process.descendants().toList());
        engines.addAll(enginesSeen);
        process.destroyForcibly();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        for (ProcessHandle engine : engines) {
            try {
                engine.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException stillThere) {
                engine.destroyForcibly();
            }
        }
    }
}
