package dev.snowid.testing.engine;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 proxy in front of a DynamoDB engine that misbehaves on demand. The mode
 * is read for every request, so a kept-alive connection changes behaviour as soon as the mode
 * does: pass through, answer too late, throttle (HTTP 400
 * {@code ProvisionedThroughputExceededException}), fail (HTTP 500), refuse connections
 * (the port is closed and every open connection dropped), lose answers (the request reaches
 * the engine and is applied, but its answer never reaches the client), or hang (the request is
 * read and never answered while the mode lasts). It speaks plain HTTP/1.1 with
 * {@code Content-Length} bodies, so it fronts any such server, not only an engine.
 */
public final class FaultyProxy implements AutoCloseable {

    private enum Mode { PASS, SLOW, THROTTLE, FAIL, REFUSE, HANG }

    private final URI upstream;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "faulty-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final AtomicInteger lostAnswersLeft = new AtomicInteger();
    /** The request line the lost answers are counted for; empty: any. */
    private volatile String losing = "";
    private volatile Mode mode = Mode.PASS;
    private volatile Duration delay = Duration.ZERO;
    private volatile ServerSocket listener;
    private volatile boolean closed;
    private int port;

    private FaultyProxy(URI upstream) {
        this.upstream = upstream;
    }

    /** A proxy, passing through, in front of {@code upstream} (an {@code http://} endpoint). */
    public static FaultyProxy inFrontOf(URI upstream) {
        FaultyProxy proxy = new FaultyProxy(upstream);
        proxy.listen();
        return proxy;
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Requests received so far, in any mode. */
    public int requests() {
        return requests.get();
    }

    public synchronized FaultyProxy passThrough() {
        return switchTo(Mode.PASS);
    }

    /** Holds every request for {@code delay} before passing it on: longer than the client's timeout, it times out. */
    public synchronized FaultyProxy slow(Duration delay) {
        this.delay = delay;
        return switchTo(Mode.SLOW);
    }

    /** Answers every request with HTTP 400 ProvisionedThroughputExceededException. */
    public synchronized FaultyProxy throttle() {
        return switchTo(Mode.THROTTLE);
    }

    /** Passes requests through, except the next {@code count}, which get HTTP 500: a store that recovers between retries. */
    public synchronized FaultyProxy failNext(int count) {
        failuresLeft.set(count);
        return switchTo(Mode.PASS);
    }

    /**
     * Passes requests through, but for the next {@code count} it forwards the request, waits for the
     * engine's answer, discards it and closes the client's connection: a write that landed although
     * the client saw only a broken connection (and retries it).
     */
    public synchronized FaultyProxy loseNextAnswers(int count) {
        return loseNextAnswers(count, "");
    }

    /**
     * As {@link #loseNextAnswers(int)}, counting only requests whose request line starts with
     * {@code requestLine} (e.g. {@code "POST /leases "}); the others pass.
     */
    public synchronized FaultyProxy loseNextAnswers(int count, String requestLine) {
        losing = requestLine;
        lostAnswersLeft.set(count);
        return switchTo(Mode.PASS);
    }

    /**
     * Accepts every request and never answers it, for as long as this mode lasts; the next mode
     * drops the hung connections, so their clients fail at once then.
     */
    public synchronized FaultyProxy hang() {
        return switchTo(Mode.HANG);
    }

    /** Answers every request with HTTP 500 InternalServerError. */
    public synchronized FaultyProxy fail() {
        return switchTo(Mode.FAIL);
    }

    /** Closes the port and drops open connections: connecting is refused until another mode is set. */
    public synchronized FaultyProxy refuse() {
        mode = Mode.REFUSE;
        closeQuietly(listener);
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        return this;
    }

    private FaultyProxy switchTo(Mode next) {
        if (mode == Mode.REFUSE) {
            mode = next;
            listen();
        }
        mode = next;
        return this;
    }

    @Override
    public synchronized void close() {
        closed = true;
        refuse();
        threads.shutdownNow();
    }

    private void listen() {
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            port = socket.getLocalPort();
            listener = socket;
            threads.execute(() -> accept(socket));
        } catch (IOException e) {
            throw new UncheckedIOException("faulty proxy could not listen on 127.0.0.1:" + port, e);
        }
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                open.add(client);
                threads.execute(() -> serve(client));
            } catch (IOException closedOrFailed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        Socket server = null;
        try (client) {
            InputStream fromClient = client.getInputStream();
            OutputStream toClient = client.getOutputStream();
            while (!closed) {
                byte[] request = readMessage(fromClient);
                if (request == null) {
                    return;
                }
                requests.incrementAndGet();
                Mode now = failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0 ? Mode.FAIL : mode;
                switch (now) {
                    case THROTTLE -> answer(toClient, 400, "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                            "The level of configured provisioned throughput for the table was exceeded (faulty proxy)");
                    case FAIL -> answer(toClient, 500, "com.amazonaws.dynamodb.v20120810#InternalServerError",
                            "Internal server error (faulty proxy)");
                    case REFUSE -> {
                        return;
                    }
                    case HANG -> {
                        while (mode == Mode.HANG && !closed) {
                            Thread.sleep(10);
                        }
                        return; // the client's connection closes unanswered
                    }
                    case SLOW, PASS -> {
                        if (now == Mode.SLOW) {
                            Thread.sleep(delay.toMillis());
                        }
                        if (server == null) {
                            server = new Socket(upstream.getHost(), upstream.getPort());
                            open.add(server);
                        }
                        server.getOutputStream().write(request);
                        byte[] response = readMessage(server.getInputStream());
                        if (response == null) {
                            return;
                        }
                        boolean counted = new String(request, 0, Math.min(request.length, 200), StandardCharsets.US_ASCII)
                                .startsWith(losing);
                        if (counted && lostAnswersLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                            return; // applied upstream; the client's connection closes unanswered
                        }
                        toClient.write(response);
                    }
                    default -> throw new IllegalStateException("unknown mode " + now);
                }
                toClient.flush();
            }
        } catch (IOException | InterruptedException gone) {
            // The client timed out and hung up, or the proxy is closing.
        } finally {
            open.remove(client);
            if (server != null) {
                open.remove(server);
                closeQuietly(server);
            }
        }
    }

    private static void answer(OutputStream out, int status, String type, String message) throws IOException {
        byte[] body = ("{\"__type\":\"" + type + "\",\"message\":\"" + message + "\"}").getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + (status == 400 ? " Bad Request" : " Internal Server Error") + "\r\n"
                + "Content-Type: application/x-amz-json-1.0\r\n"
                + "x-amzn-RequestId: FAULTYPROXY\r\n"
                + "Content-Length: " + body.length + "\r\n"
                + "Connection: keep-alive\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
    }

    /** One HTTP/1.1 message (head and a Content-Length body), as raw bytes; null at end of stream. */
    private static byte[] readMessage(InputStream in) throws IOException {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                if (message.size() == 0) {
                    return null;
                }
                throw new EOFException("connection closed inside an HTTP head");
            }
            message.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String head = message.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        message.write(in.readNBytes(length));
        return message.toByteArray();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception alreadyClosed) {
            // Nothing left to release.
        }
    }
}
