package dev.snowid.local.http;

import dev.snowid.protocol.ErrorCode;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local runner's HTTP/1.1 server, on Netty: one event-loop thread does every read and write,
 * non-blocking, for every connection. A request's head and body are read into memory before any
 * handler sees it, and the head is shown to a {@link HeadHandler} first, which may answer before
 * a byte of the body is read. So a client that sends slowly, or not at all, costs a connection
 * and its buffer, never a thread: it cannot delay anyone else's request. Each phase the client
 * must act in has a deadline ({@value #IDLE_SECONDS} s idle before a request,
 * {@value #REQUEST_SECONDS} s from its first byte to its last, {@value #WRITE_SECONDS} s to take
 * the answer). Whatever cannot be read as HTTP is answered by the server itself, as JSON
 * {@code {"error","message"}} with a 4xx.
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

    static {
        // Netty's few warnings go to java.util.logging (stderr), not to whichever SLF4J binding the function's jar carries.
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }

    private final EventLoopGroup loop;
    private final Channel listener;
    private final HeadHandler headHandler;
    private final int maxBodyBytes;
    private final AtomicInteger connections = new AtomicInteger();

    private LocalHttpServer(EventLoopGroup loop, InetSocketAddress address, HeadHandler headHandler, int maxBodyBytes) throws IOException {
        this.loop = loop;
        this.headHandler = headHandler;
        this.maxBodyBytes = maxBodyBytes;
        ChannelFuture bound = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 128)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        accept(channel);
                    }
                })
                .bind(address).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            // A BindException as it is: the runner names the port in use from it.
            throw bound.cause() instanceof IOException io ? io : new IOException(bound.cause());
        }
        this.listener = bound.channel();
    }

    /**
     * Listens on {@code address} and serves until closed.
     *
     * @param maxBodyBytes larger bodies are refused with 413 before they are read
     */
    public static LocalHttpServer start(InetSocketAddress address, int maxBodyBytes, HeadHandler headHandler) throws IOException {
        // Not daemon threads: the event loop keeps the runner's JVM alive until it is closed.
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("snowid-local-http", false),
                NioIoHandler.newFactory());
        try {
            return new LocalHttpServer(loop, address, headHandler, maxBodyBytes);
        } catch (IOException | RuntimeException e) {
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) listener.localAddress();
    }

    /** Stops listening and closes every connection. */
    @Override
    public void close() {
        listener.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    int maxBodyBytes() {
        return maxBodyBytes;
    }

    HeadHandler headHandler() {
        return headHandler;
    }

    /** A fault of the runner's own, not the client's: said on stderr, and the connection is closed. */
    void failed(String what, Throwable e) {
        System.err.println("snowid local: " + ErrorCode.INTERNAL.tag(what + " failed: " + e));
    }

    /** A new connection's pipeline: bytes, then Netty's decoder behind the strict head, then the exchange; or 503 past the limit. */
    private void accept(SocketChannel channel) {
        if (connections.incrementAndGet() > MAX_CONNECTIONS) {
            connections.decrementAndGet();
            channel.writeAndFlush(Unpooled.wrappedBuffer(Responses.refusal(new Refusal(503, "unavailable", "the local runner holds "
                    + MAX_CONNECTIONS + " connections, its most; close idle ones or retry shortly"), false)))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        channel.closeFuture().addListener(closed -> connections.decrementAndGet());
        StrictRequestDecoder decoder = new StrictRequestDecoder(maxBodyBytes);
        Connection connection = new Connection(this, decoder);
        channel.pipeline().addLast(connection.new Bytes(), decoder, connection);
    }
}
