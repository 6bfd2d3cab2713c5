package dev.snowid.local.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The local runner's HTTP/1.1 server: one thread does every read and write, non-blocking, for
 * every connection. A request's head and body are read into memory before any handler sees it,
 * and the head is shown to a {@link HeadHandler} first, which may answer before a byte of the
 * body is read. So a client that sends slowly, or not at all, costs a connection and its buffer,
 * never a thread: it cannot delay anyone else's request. Each phase the client must act in has a
 * deadline ({@value #IDLE_SECONDS} s idle before a request, {@value #REQUEST_SECONDS} s from its
 * first byte to its last, {@value #WRITE_SECONDS} s to take the answer). Whatever cannot be read
 * as HTTP is answered by the server itself, as JSON {@code {"error","message"}} with a 4xx.
 */
public final class LocalHttpServer implements AutoCloseable {

    /** Connections held at once; one more is answered 503 and closed. */
    public static final int MAX_CONNECTIONS = 1024;
    /** The longest request line and headers together. */
    public static final int MAX_HEAD_BYTES = 16 * 1024;
    public static final int IDLE_SECONDS = 30;
    public static final int REQUEST_SECONDS = 10;
    public static final int WRITE_SECONDS = 10;
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(IDLE_SECONDS);
    static final long REQUEST_NANOS = TimeUnit.SECONDS.toNanos(REQUEST_SECONDS);
    static final long WRITE_NANOS = TimeUnit.SECONDS.toNanos(WRITE_SECONDS);
    /** After an answer that closes the connection: how long, and how much, the rest of the request is read and dropped. */
    static final long DRAIN_NANOS = TimeUnit.SECONDS.toNanos(2);
    static final long MAX_DRAIN_BYTES = 1 << 20;
    private static final long SWEEP_MILLIS = 100;

    private final ServerSocketChannel listener;
    private final Selector selector;
    private final HeadHandler headHandler;
    private final int maxBodyBytes;
    private final Queue<Runnable> fromOtherThreads = new ConcurrentLinkedQueue<>();
    /** Touched by the I/O thread only. */
    private final Set<Connection> connections = new HashSet<>();
    private final Thread io;
    private volatile boolean open = true;

    private LocalHttpServer(ServerSocketChannel listener, Selector selector, HeadHandler headHandler, int maxBodyBytes) {
        this.listener = listener;
        this.selector = selector;
        this.headHandler = headHandler;
        this.maxBodyBytes = maxBodyBytes;
        // Not a daemon: this thread keeps the runner's JVM alive until it is closed.
        this.io = new Thread(this::run, "snowid-local-http");
    }

    /**
     * Listens on {@code address} and serves until closed.
     *
     * @param maxBodyBytes larger bodies are refused with 413 before they are read
     */
    public static LocalHttpServer start(InetSocketAddress address, int maxBodyBytes, HeadHandler headHandler) throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open();
        Selector selector = null;
        try {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(address, 128);
            listener.configureBlocking(false);
            selector = Selector.open();
            listener.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException | RuntimeException e) {
            listener.close();
            if (selector != null) {
                selector.close();
            }
            throw e;
        }
        LocalHttpServer server = new LocalHttpServer(listener, selector, headHandler, maxBodyBytes);
        server.io.start();
        return server;
    }

    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) listener.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stops listening and closes every connection. */
    @Override
    public void close() {
        open = false;
        selector.wakeup();
        try {
            io.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    int maxBodyBytes() {
        return maxBodyBytes;
    }

    HeadHandler headHandler() {
        return headHandler;
    }

    /** Where an exchange of {@code connection} sends its answer, from whichever thread closes it. */
    Consumer<byte[]> answerTo(Connection connection) {
        return answer -> {
            fromOtherThreads.add(() -> connection.send(answer));
            selector.wakeup();
        };
    }

    void closed(Connection connection) {
        connections.remove(connection);
    }

    /** A fault of the runner's own, not the client's: said on stderr, and the connection is closed. */
    void failed(String what, Throwable e) {
        System.err.println("snowid local: " + what + " failed: " + e);
    }

    private void run() {
        long lastSweep = System.nanoTime();
        try {
            while (open) {
                selector.select(SWEEP_MILLIS);
                for (Runnable task; (task = fromOtherThreads.poll()) != null; ) {
                    task.run();
                }
                Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
                while (ready.hasNext()) {
                    SelectionKey key = ready.next();
                    ready.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept(key);
                    } else if (key.attachment() instanceof Connection connection) {
                        try {
                            if (key.isWritable()) {
                                connection.writable();
                            } else if (key.isReadable()) {
                                connection.readable();
                            }
                        } catch (RuntimeException bug) {
                            failed("serving a connection", bug); // that connection goes; the server and the others stay
                            connection.close();
                        }
                    }
                }
                long now = System.nanoTime();
                if (now - lastSweep >= TimeUnit.MILLISECONDS.toNanos(SWEEP_MILLIS)) {
                    lastSweep = now;
                    SelectionKey accepting = listener.keyFor(selector);
                    if (accepting != null && accepting.interestOps() == 0) {
                        accepting.interestOps(SelectionKey.OP_ACCEPT); // accept again after a pause (see accept)
                    }
                    for (Connection connection : new ArrayList<>(connections)) {
                        if (connection.overdue(now)) {
                            connection.expire();
                        }
                    }
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (open) {
                failed("the HTTP server", e);
            }
        } finally {
            new ArrayList<>(connections).forEach(Connection::close);
            try {
                listener.close();
                selector.close();
            } catch (IOException ignored) {
                // stopping anyway
            }
        }
    }

    private void accept(SelectionKey key) {
        for (int i = 0; i < 64; i++) { // a few at a time: the connections already in keep their turn
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (IOException e) {
                // Out of file descriptors, most likely: pause accepting until the next sweep rather than spin.
                failed("accepting a connection", e);
                key.interestOps(0);
                return;
            }
            if (channel == null) {
                return;
            }
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (connections.size() >= MAX_CONNECTIONS) {
                    refuseOverLimit(channel);
                    continue;
                }
                Connection connection = new Connection(this, channel, System.nanoTime());
                connection.register(channel.register(selector, SelectionKey.OP_READ, connection));
                connections.add(connection);
            } catch (IOException gone) {
                closeQuietly(channel);
            }
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // gone already
        }
    }

    private static void refuseOverLimit(SocketChannel channel) {
        try (channel) {
            channel.write(ByteBuffer.wrap(Responses.refusal(new Refusal(503, "unavailable", "the local runner holds "
                    + MAX_CONNECTIONS + " connections, its most; close idle ones or retry shortly"), false)));
        } catch (IOException ignored) {
            // it is being closed anyway
        }
    }
}
