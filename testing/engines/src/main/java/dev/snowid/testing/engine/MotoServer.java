package dev.snowid.testing.engine;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;

/**
 * moto's server ({@code moto_server}, the Python AWS emulator: DynamoDB, CloudFormation, Lambda,
 * IAM, S3, API Gateway v2 ... on one port), run as a child process on a free loopback port.
 *
 * <p>It is started through {@code sh}, which waits on its standard input and stops moto when
 * that closes: so moto also ends when this JVM is killed outright (no shutdown hook runs then,
 * but the operating system closes the pipe).
 */
public final class MotoServer implements AutoCloseable {

    public static final String COMMAND = "moto_server";
    /** Set to {@code 1} (CI does) to make a missing {@code moto_server} an error instead of a skipped pass. */
    public static final String REQUIRED_VARIABLE = "SNOWID_TEST_REQUIRE_MOTO";
    public static final String HOW_TO_INSTALL = "install moto's server with `pip install 'moto[server]'` (moto 5.x),"
            + " so that `" + COMMAND + "` is on PATH";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    // Stops moto when the JVM closes the pipe (close(), or the JVM's death); $1 is moto_server.
    private static final String GUARD = "\"$@\" & child=$!; read -r ignored; kill $child 2>/dev/null; wait $child";

    private final Process guard;
    private final URI endpoint;
    private final Path log;
    private final Thread shutdownHook;

    private MotoServer(Process guard, URI endpoint, Path log) {
        this.guard = guard;
        this.endpoint = endpoint;
        this.log = log;
        this.shutdownHook = new Thread(this::stop, "moto-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** {@code moto_server} on PATH, if there is one. */
    public static Optional<Path> find() {
        return PathCommand.find(COMMAND);
    }

    /** Whether this run must have moto ({@value #REQUIRED_VARIABLE}=1). */
    public static boolean required() {
        return "1".equals(System.getenv(REQUIRED_VARIABLE));
    }

    /** Starts {@code moto_server} from PATH; throws, saying how to install it, when there is none. */
    public static MotoServer start() {
        Path command = find().orElseThrow(() -> new IllegalStateException("no " + COMMAND + " on PATH: " + HOW_TO_INSTALL));
        IllegalStateException last = null;
        // The free port is chosen before moto binds it; another process may take it in between.
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return launch(command, freeLoopbackPort());
            } catch (PortTakenException e) {
                last = e;
            }
        }
        throw last;
    }

    private static MotoServer launch(Path command, int port) {
        Path log;
        Process guard;
        try {
            log = Files.createTempFile("moto-" + port + "-", ".log");
            log.toFile().deleteOnExit();
            guard = new ProcessBuilder("sh", "-c", GUARD, "sh", command.toString(), "-H", "127.0.0.1", "-p", Integer.toString(port))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command + " (" + e.getMessage() + "): " + HOW_TO_INSTALL, e);
        }
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        try {
            await(COMMAND + " accepting connections").atMost(START_TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                    .until(() -> acceptsOrThrowsWhenExited(guard, port, log));
            return new MotoServer(guard, endpoint, log);
        } catch (ConditionTimeoutException notYet) {
            new MotoServer(guard, endpoint, log).close();
            throw new IllegalStateException(COMMAND + " did not accept connections on " + endpoint + " within "
                    + START_TIMEOUT + ": " + tail(log));
        }
    }

    /** Whether moto accepts connections yet; it fails at once when moto has exited. */
    private static boolean acceptsOrThrowsWhenExited(Process guard, int port, Path log) {
        if (!guard.isAlive()) {
            String output = tail(log);
            if (output.contains("Address already in use")) {
                throw new PortTakenException(port);
            }
            throw new IllegalStateException(COMMAND + " exited with status " + guard.exitValue()
                    + " before accepting connections: " + output);
        }
        return accepts(port);
    }

    /** Where AWS clients send their requests (every service on this one port). */
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to: nothing left to do.
        }
    }

    private void stop() {
        try (OutputStream stdin = guard.getOutputStream()) {
            stdin.flush(); // closing it is the signal
        } catch (IOException alreadyClosed) {
            // The guard is gone already.
        }
        try {
            if (!guard.waitFor(10, TimeUnit.SECONDS)) {
                guard.descendants().forEach(ProcessHandle::destroyForcibly);
                guard.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            guard.descendants().forEach(ProcessHandle::destroyForcibly);
            guard.destroyForcibly();
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
        return "moto at " + endpoint;
    }

    private static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port for moto", e);
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

    private static final class PortTakenException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortTakenException(int port) {
            super("port " + port + " was taken before moto could bind it");
        }
    }
}
