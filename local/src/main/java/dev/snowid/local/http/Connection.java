package dev.snowid.local.http;

import com.sun.net.httpserver.HttpHandler;
import dev.snowid.local.http.StrictRequestDecoder.ReadHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One client connection, on its event loop alone: it takes a head, asks the {@link HeadHandler},
 * collects the body, hands the request over, writes the answer, then takes the next request
 * (keep-alive) or closes. Every phase in which the client is the one to act has a deadline, so
 * a client can hold a connection, never a thread. Nothing is read while a request is handled or
 * answered; requests pipelined behind it wait their turn.
 */
final class Connection extends ChannelInboundHandlerAdapter {

    private enum State { IDLE, HEAD, BODY, HANDLING, WRITING, DRAINING, CLOSED }

    private final LocalHttpServer server;
    private final StrictRequestDecoder decoder;
    /** Decoded while a request was in hand: taken once it is answered. */
    private final Queue<Object> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private State state = State.IDLE;
    private ScheduledFuture<?> deadline;
    private ServerExchange exchange;
    private HttpHandler next;
    private ByteArrayOutputStream body;
    private long drained;

    Connection(LocalHttpServer server, StrictRequestDecoder decoder) {
        this.server = server;
        this.decoder = decoder;
    }

    /** Sees the bytes before the decoder: a request's first byte starts its deadline; after a closing answer, bytes are dropped. */
    final class Bytes extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext bytesCtx, Object msg) {
            int n = ((ByteBuf) msg).readableBytes();
            if (state == State.DRAINING || state == State.CLOSED) {
                ReferenceCountUtil.release(msg);
                drained += n;
                if (drained > LocalHttpServer.MAX_DRAIN_BYTES) {
                    close();
                }
                return;
            }
            if (state == State.IDLE && n > 0) {
                state = State.HEAD;
                deadline(LocalHttpServer.REQUEST_NANOS);
            }
            bytesCtx.fireChannelRead(msg);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        deadline(LocalHttpServer.IDLE_NANOS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (!(cause instanceof IOException)) { // a reset or broken pipe is the client leaving; anything else is ours
            server.failed("serving a connection", cause);
        }
        close();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        if (state == State.HANDLING || state == State.WRITING) {
            waiting.add(msg);
            return;
        }
        if (state == State.DRAINING || state == State.CLOSED) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (msg instanceof Refusal refusal) {
                refuse(refusal);
            } else if (msg instanceof ReadHead head) {
                head(head);
            } else if (msg instanceof HttpContent content) {
                content(content);
            }
        } catch (Refusal refusal) {
            refuse(refusal);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** The head, once it is in: the head handler answers it, or the body is collected for the handler it names. */
    private void head(ReadHead read) {
        if (read.failure() != null) { // what Netty refuses that the strict head let through: framing, by its own rules
            throw Refusal.invalid("the request cannot be read as HTTP/1.1: its framing headers are not valid");
        }
        RequestHead head = read.head();
        String expect = head.header("Expect");
        if (expect != null && !expect.trim().equalsIgnoreCase("100-continue")) {
            throw new Refusal(417, "expectation_failed", "the only Expect understood is 100-continue");
        }
        InetSocketAddress local = (InetSocketAddress) ctx.channel().localAddress();
        InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
        exchange = new ServerExchange(head, local, remote, !head.keepAlive() || !read.bodyIn(), this::answerFromAnyThread);
        handling();
        HttpHandler handler;
        try {
            handler = server.headHandler().onHead(exchange);
        } catch (IOException | RuntimeException broken) {
            server.failed("answering a request's head", broken);
            close();
            return;
        }
        if (handler == null) {
            // Its body, if it came with the head, is dropped as it is decoded (the connection stays); else never read (it closes).
            exchange.close(); // answered, and its answer on its way to send(); if not, the connection closes
            return;
        }
        exchange.closeAfterAnswer(!head.keepAlive());
        next = handler;
        body = new ByteArrayOutputStream(1024);
        state = State.BODY;
        deadline(LocalHttpServer.REQUEST_NANOS);
        ctx.channel().config().setAutoRead(true);
        if (expect != null && !read.bodyIn()) {
            ctx.writeAndFlush(Unpooled.wrappedBuffer(Responses.CONTINUE));
        }
    }

    private void content(HttpContent content) {
        if (content.decoderResult().isFailure()) {
            throw Refusal.invalid("the chunked body cannot be read: a chunk size is not a hexadecimal number, or a chunk is"
                    + " longer than its size says");
        }
        boolean last = content instanceof LastHttpContent;
        if (state != State.BODY) { // the body of a request answered on its head
            return;
        }
        ByteBuf bytes = content.content();
        if (body.size() + bytes.readableBytes() > server.maxBodyBytes()) {
            throw BodyFraming.tooLarge(server.maxBodyBytes());
        }
        body.writeBytes(ByteBufUtil.getBytes(bytes));
        if (last) {
            exchange.body(body.toByteArray());
            body = null;
            handling();
            try {
                next.handle(exchange);
            } catch (IOException | RuntimeException broken) {
                server.failed("handing a request over", broken);
                close();
            }
        }
    }

    /** No deadline of the client's while its request is in hand, and no reading: the next request waits in the socket. */
    private void handling() {
        state = State.HANDLING;
        cancelDeadline();
        ctx.channel().config().setAutoRead(false);
    }

    /** The answer of the exchange in hand, from whichever thread closed it; null: close without one. */
    private void answerFromAnyThread(byte[] answer) {
        try {
            ctx.executor().execute(() -> answer(answer));
        } catch (RejectedExecutionException stopping) {
            // the server is closing: so is this connection
        }
    }

    private void answer(byte[] answer) {
        if (state != State.HANDLING) {
            return; // closed meanwhile
        } else if (answer == null) {
            close();
        } else {
            write(answer, exchange.closesAfterAnswer());
        }
    }

    private void refuse(Refusal refusal) {
        boolean head = exchange != null && exchange.getRequestMethod().equals("HEAD");
        write(Responses.refusal(refusal, head), true);
    }

    private void write(byte[] answer, boolean close) {
        state = State.WRITING;
        ctx.channel().config().setAutoRead(false);
        deadline(LocalHttpServer.WRITE_NANOS);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(answer)).addListener(written -> {
            if (!written.isSuccess()) {
                close();
            } else if (close) {
                drain();
            } else {
                nextRequest();
            }
        });
    }

    /** Keep-alive: the requests that came meanwhile, in turn, then the socket again. */
    private void nextRequest() {
        exchange = null;
        next = null;
        state = State.IDLE;
        while (!waiting.isEmpty() && (state == State.IDLE || state == State.BODY)) {
            channelRead(ctx, waiting.poll());
        }
        if (state == State.IDLE) { // bytes of a request read, not yet a whole head: it has begun
            state = decoder.holdsBytes() ? State.HEAD : State.IDLE;
            deadline(state == State.HEAD ? LocalHttpServer.REQUEST_NANOS : LocalHttpServer.IDLE_NANOS);
        }
        if (state == State.HEAD || state == State.IDLE || state == State.BODY) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * Half-close, then read and drop what the client still sends, for a while: a close with
     * unread bytes would reset the connection, and the client could lose the answer it has not read yet.
     */
    private void drain() {
        state = State.DRAINING;
        releaseWaiting();
        deadline(LocalHttpServer.DRAIN_NANOS);
        ((SocketChannel) ctx.channel()).shutdownOutput();
        ctx.channel().config().setAutoRead(true);
    }

    /** Its deadline passed: a request begun and not finished is told so (408); anything else just closes. */
    private void expire() {
        if (state == State.HEAD || state == State.BODY) {
            refuse(new Refusal(408, "request_timeout", "the request was not complete within " + LocalHttpServer.REQUEST_SECONDS
                    + " s of its first byte; send the head and the body without pausing"));
        } else if (state != State.HANDLING) {
            close();
        }
    }

    void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        cancelDeadline();
        releaseWaiting();
        ctx.close();
    }

    private void releaseWaiting() {
        for (Object message; (message = waiting.poll()) != null; ) {
            ReferenceCountUtil.release(message);
        }
    }

    private void deadline(long nanos) {
        cancelDeadline();
        deadline = ctx.executor().schedule(this::expire, nanos, TimeUnit.NANOSECONDS);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
