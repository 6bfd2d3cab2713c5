package dev.snowid.dynalite;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One dynalite process (the npm DynamoDB-compatible server, Apache-2.0) on a loopback port, run
 * through {@code dynalite-child.js}, which exits when this JVM is gone, {@code kill -9} included.
 * Its tables live in memory, or on disk in a folder ({@link #onDisk}).
 *
 * <p>Tables become ACTIVE at once (dynalite's default is 500 ms in CREATING). Every engine
 * answers only a loopback {@code Host} and never a web page (no CORS); the local runner's
 * ({@link #onDisk}) also only requests that show its {@link EngineCredential}. {@link #start()}
 * (the tests' and benchmarks' engine, their own) also stops the process from a shutdown hook.
 */
public final class Dynalite implements AutoCloseable {

    public static final String CHILD_SCRIPT = "dynalite-child.js";
    private static final long START_TIMEOUT_MILLIS = 20_000;
    /** The child script, written once per JVM for the in-memory engines. */
    private static Path sharedScript;

    private final Process process;
    private final URI endpoint;
    private final Path log;
    /** Where this process's output starts in {@link #log}, which earlier processes may have written to. */
    private final long logStart;
    private final boolean ownsLog;
    private final Thread shutdownHook;

    private Dynalite(Process process, URI endpoint, Path log, long logStart, boolean ownsLog, boolean withShutdownHook) {
        this.process = process;
        this.endpoint = endpoint;
        this.log = log;
        this.logStart = logStart;
        this.ownsLog = ownsLog;
        this.shutdownHook = withShutdownHook ? new Thread(this::kill, "dynalite-shutdown") : null;
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /** Starts dynalite in memory from the folder {@link DynaliteInstall} finds (or installs). */
    public static Dynalite start() {
        return start(DynaliteInstall.find(System.getenv(), System.err));
    }

    /** Starts dynalite in memory, installed in {@code dir} (the folder with its package.json and node_modules). */
    public static Dynalite start(Path dir) {
        requireInstalled(dir);
        Path script = sharedScript();
        IllegalStateException last = null;
        // The free port is chosen before node binds it; another process may take it in between.
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = freeLoopbackPort();
            try {
                Path log = Files.createTempFile("dynalite-" + port + "-", ".log");
                log.toFile().deleteOnExit();
                return launch(command(script, dir, port), port, log, true, true);
            } catch (PortTakenException e) {
                last = e;
            } catch (IOException e) {
                throw new UncheckedIOException("no temporary file for dynalite's log: " + e.getMessage(), e);
            }
        }
        throw last;
    }

    /**
     * Starts dynalite with its tables on disk, on a given port, answering only requests that
     * show {@code credential} ({@link EngineCredential#HEADER}), without a shutdown hook (its
     * owner stops it). Its output is appended to {@code log}.
     *
     * @param folder       holds the child script; removed by the child if this JVM dies first
     * @param tables       the LevelDB folder; a restart on the same folder finds the same tables
     * @throws PortTakenException when another process holds {@code port}
     */
    public static Dynalite onDisk(Path dir, Path folder, Path tables, int port, Path log, EngineCredential credential) {
        requireInstalled(dir);
        Path script = folder.resolve(CHILD_SCRIPT);
        if (!Files.isRegularFile(script)) {
            writeScript(script);
        }
        List<String> command = command(script, dir, port);
        command.addAll(List.of("--path", tables.toString(), "--remove-when-orphaned", folder.toString(),
                "--credential-file", credential.file().toString()));
        return launch(command, port, log, false, false);
    }

    private static List<String> command(Path script, Path dir, int port) {
        return new ArrayList<>(List.of("node", script.toString(), "--install", dir.toAbsolutePath().toString(),
                "--port", Integer.toString(port)));
    }

    private static Dynalite launch(List<String> command, int port, Path log, boolean ownsLog, boolean withShutdownHook) {
        Process process;
        long logStart = size(log);
        try {
            // stdin stays a pipe from this JVM: the child exits when it closes.
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new IllegalStateException("could not run `node` (" + e.getMessage() + "): install Node.js 18 or later", e);
        }
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (true) {
            if (!process.isAlive()) {
                String output = tail(log, logStart);
                if (output.contains("EADDRINUSE")) {
                    throw new PortTakenException(port);
                }
                throw new IllegalStateException("dynalite exited with status " + process.exitValue()
                        + " before accepting connections: " + output);
            }
            if (tail(log, logStart).contains("pid " + process.pid() + " listening on ")) {
                return new Dynalite(process, endpoint, log, logStart, ownsLog, withShutdownHook);
            }
            if (System.currentTimeMillis() > deadline) {
                process.destroyForcibly();
                throw new IllegalStateException("dynalite did not accept connections on " + endpoint
                        + " within " + START_TIMEOUT_MILLIS + " ms: " + tail(log, logStart));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for dynalite to start", e);
            }
        }
    }

    private static void requireInstalled(Path dir) {
        if (!DynaliteInstall.isInstalled(dir)) {
            throw new IllegalStateException("dynalite is not installed in " + dir.toAbsolutePath()
                    + " (no node_modules/dynalite/cli.js): install Node.js (18 or later, with npm) and run"
                    + " `npm ci --prefix dynalite` from the repository root (or any `mvn verify`, which runs it)");
        }
    }

    private static synchronized Path sharedScript() {
        if (sharedScript == null) {
            try {
                Path script = Files.createTempFile("snowid-" + CHILD_SCRIPT.replace(".js", "-"), ".js");
                script.toFile().deleteOnExit();
                writeScript(script);
                sharedScript = script;
            } catch (IOException e) {
                throw new UncheckedIOException("could not write dynalite's child script: " + e.getMessage(), e);
            }
        }
        return sharedScript;
    }

    private static void writeScript(Path target) {
        try (InputStream in = DynaliteCache.resource(CHILD_SCRIPT)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + target + ": " + e.getMessage(), e);
        }
    }

    /** Where DynamoDB clients send their requests, e.g. {@code http://127.0.0.1:41234}. */
    public URI endpoint() {
        return endpoint;
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    /** The process id of the node process that serves the tables. */
    public long pid() {
        return process.pid();
    }

    /** Waits up to {@code millis} for the process to end; true when it has. */
    public boolean awaitExit(long millis) throws InterruptedException {
        return process.waitFor(millis, TimeUnit.MILLISECONDS);
    }

    /** How the process ended, for a log line: its status and its last output. */
    public String exitReport() {
        String status = process.isAlive() ? "still running" : "status " + process.exitValue();
        return status + ", last output: " + lastLines(tail(log, logStart), 6);
    }

    @Override
    public void close() {
        kill();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // The hook is running or about to: nothing left to do.
            }
        }
    }

    private void kill() {
        process.destroy();
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        if (ownsLog) {
            try {
                Files.deleteIfExists(log);
            } catch (IOException ignored) {
                // A temp file; deleteOnExit gets it otherwise.
            }
        }
    }

    @Override
    public String toString() {
        return "dynalite at " + endpoint + " (pid " + process.pid() + ")";
    }

    public static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port for dynalite", e);
        }
    }



    private static long size(Path log) {
        try {
            return Files.size(log);
        } catch (IOException none) {
            return 0;
        }
    }

    /**
     * The output from {@code start} on, its last 2000 characters. The child says when its server
     * is bound; that is what a start waits for (a port that merely accepts may be someone else's).
     */
    private static String tail(Path log, long start) {
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ)) {
            long from = Math.max(start, channel.size() - 2000);
            ByteBuffer bytes = ByteBuffer.allocate((int) Math.max(0, channel.size() - from));
            channel.read(bytes, from);
            String text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8).strip();
            return from > start ? "..." + text : text;
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static String lastLines(String text, int count) {
        String[] lines = text.split("\n");
        return String.join(" | ", List.of(lines).subList(Math.max(0, lines.length - count), lines.length));
    }

    /** Another process holds the port dynalite was to listen on. */
    public static final class PortTakenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTakenException(int port) {
            super("port " + port + " was taken before dynalite could bind it");
        }
    }
}
