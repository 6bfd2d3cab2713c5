package dev.snowid.lambda.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * dynalite, the npm DynamoDB-compatible server (Apache-2.0), run as a child {@code node}
 * process on a free loopback port, in memory. The Maven build installs it into
 * {@code lambda/dynalite/node_modules} ({@code npm ci}); the local runner and the tests start it.
 *
 * <p>Tables become ACTIVE at once (dynalite's default is 500 ms in CREATING). The process is
 * killed on {@link #close()}, and by a shutdown hook if the JVM exits first.
 */
public final class Dynalite implements AutoCloseable {

    /** System property naming the folder that holds dynalite's {@code package.json} and {@code node_modules}. */
    public static final String DIR_PROPERTY = "snowid.dynalite.dir";

    private static final String HOW_TO_INSTALL = "install Node.js (18 or later, with npm) and run"
            + " `npm ci --prefix lambda/dynalite` from the repository root (or any `mvn verify`, which runs it)";
    private static final long START_TIMEOUT_MILLIS = 20_000;

    private final Process process;
    private final URI endpoint;
    private final Path log;
    private final Thread shutdownHook;

    private Dynalite(Process process, URI endpoint, Path log) {
        this.process = process;
        this.endpoint = endpoint;
        this.log = log;
        this.shutdownHook = new Thread(this::kill, "dynalite-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts dynalite from the folder {@link #locate()} finds. */
    public static Dynalite start() {
        return start(locate());
    }

    /** Starts dynalite installed in {@code dir} (the folder with its package.json and node_modules). */
    public static Dynalite start(Path dir) {
        Path cli = dir.resolve("node_modules").resolve("dynalite").resolve("cli.js");
        if (!Files.isRegularFile(cli)) {
            throw new IllegalStateException("dynalite is not installed in " + dir.toAbsolutePath()
                    + " (no node_modules/dynalite/cli.js): " + HOW_TO_INSTALL);
        }
        IllegalStateException last = null;
        // The free port is chosen before node binds it; another process may take it in between.
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return launch(cli, freeLoopbackPort());
            } catch (PortTakenException e) {
                last = e;
            }
        }
        throw last;
    }

    /**
     * The dynalite folder: the {@value #DIR_PROPERTY} system property, else the nearest
     * {@code dynalite/} or {@code lambda/dynalite/} above the working directory (so it is found
     * from the repository root and from any module's folder).
     */
    public static Path locate() {
        String configured = System.getProperty(DIR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            Path dir = Paths.get(configured);
            if (!Files.isRegularFile(dir.resolve("package.json"))) {
                throw new IllegalStateException("-D" + DIR_PROPERTY + "=" + configured
                        + " has no package.json: point it at the repository's lambda/dynalite folder");
            }
            return dir;
        }
        Path start = Paths.get("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            for (Path candidate : List.of(dir.resolve("dynalite"), dir.resolve("lambda").resolve("dynalite"))) {
                if (isDynaliteFolder(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("no dynalite folder (lambda/dynalite with a package.json) above " + start
                + ": run from inside the snowid repository or set -D" + DIR_PROPERTY + "=<repo>/lambda/dynalite");
    }

    private static boolean isDynaliteFolder(Path dir) {
        Path packageJson = dir.resolve("package.json");
        try {
            return Files.isRegularFile(packageJson)
                    && Files.readString(packageJson, StandardCharsets.UTF_8).contains("\"dynalite\"");
        } catch (IOException e) {
            return false;
        }
    }

    private static Dynalite launch(Path cli, int port) {
        Path log;
        Process process;
        try {
            log = Files.createTempFile("dynalite-" + port + "-", ".log");
            log.toFile().deleteOnExit();
            process = new ProcessBuilder("node", cli.toString(),
                    "--host", "127.0.0.1", "--port", Integer.toString(port),
                    "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("could not run `node` (" + e.getMessage() + "): " + HOW_TO_INSTALL, e);
        }
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (true) {
            if (!process.isAlive()) {
                String output = tail(log);
                if (output.contains("EADDRINUSE")) {
                    throw new PortTakenException(port);
                }
                throw new IllegalStateException("dynalite exited with status " + process.exitValue()
                        + " before accepting connections: " + output + "\n(" + HOW_TO_INSTALL + ")");
            }
            if (accepts(port)) {
                return new Dynalite(process, endpoint, log);
            }
            if (System.currentTimeMillis() > deadline) {
                process.destroyForcibly();
                throw new IllegalStateException("dynalite did not accept connections on " + endpoint
                        + " within " + START_TIMEOUT_MILLIS + " ms: " + tail(log));
            }
            pause(25);
        }
    }

    /** Where DynamoDB clients send their requests, e.g. {@code http://127.0.0.1:41234}. */
    public URI endpoint() {
        return endpoint;
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    @Override
    public void close() {
        kill();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to: nothing left to do.
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
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // A temp file; deleteOnExit gets it otherwise.
        }
    }

    @Override
    public String toString() {
        return "dynalite at " + endpoint;
    }

    private static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port for dynalite", e);
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8).strip();
            return text.length() > 2000 ? "..." + text.substring(text.length() - 2000) : text;
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for dynalite to start", e);
        }
    }

    private static final class PortTakenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTakenException(int port) {
            super("port " + port + " was taken before dynalite could bind it");
        }
    }
}
