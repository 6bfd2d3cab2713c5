package dev.snowid.local.http;

import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One client connection, driven by the server's I/O thread alone: it reads a head, asks the
 * {@link HeadHandler}, reads the body, hands the request over, writes the answer, then reads the
 * next request (keep-alive) or closes. Every phase in which the client is the one to act has a
 * deadline, so a client can hold a connection, never a thread.
 */
final class Connection {

    private enum State { HEAD, BODY, HANDLING, WRITING, DRAINING, CLOSED }

    private final LocalHttpServer server;
    private final SocketChannel channel;
    private final InetSocketAddress local;
    private final InetSocketAddress remote;
    private SelectionKey key;
    /** Bytes read and not yet consumed are {@code buffer[start, end)}. */
    private byte[] buffer = new byte[4096];
    private int start;
    private int end;
    /** In HEAD, where to go on looking for the empty line that ends it. */
    private int scanned;
    private State state = State.HEAD;
    private boolean requestBegun;
    private long deadline;
    private ServerExchange exchange;
    private RequestBody body;
    private HttpHandler next;
    private ByteBuffer out;
    private boolean closeAfterWrite;
    private long drained;

    Connection(LocalHttpServer server, SocketChannel channel, long now) throws IOException {
        this.server = server;
        this.channel = channel;
        this.local = (InetSocketAddress) channel.getLocalAddress();
        this.remote = (InetSocketAddress) channel.getRemoteAddress();
        this.deadline = now + LocalHttpServer.IDLE_NANOS;
    }

    void register(SelectionKey key) {
        this.key = key;
    }

    /** Whether the client had its time for what it must do now (a handler's time is the handler's to bound). */
    boolean overdue(long now) {
        return state != State.HANDLING && state != State.CLOSED && now - deadline > 0;
    }

    /** Its deadline passed: a request begun and not finished is told so (408); anything else just closes. */
    void expire() {
        if (state == State.BODY || state == State.HEAD && requestBegun) {
            refuse(new Refusal(408, "request_timeout", "the request was not complete within " + LocalHttpServer.REQUEST_SECONDS
                    + " s of its first byte; send the head and the body without pausing"));
        } else {
            close();
        }
    }

    void readable() {
        try {
            if (end == buffer.length) {
                makeRoom();
            }
            int n = channel.read(ByteBuffer.wrap(buffer, end, buffer.length - end));
            if (n < 0) {
                close(); // the client is done: mid-request there is no one left to tell
                return;
            }
            if (state == State.DRAINING) {
                drain(n);
                return;
            }
            end += n;
            if (state == State.HEAD && !requestBegun && n > 0) {
                requestBegun = true;
                deadline = System.nanoTime() + LocalHttpServer.REQUEST_NANOS;
            }
            process();
        } catch (IOException gone) {
            close();
        }
    }

    void writable() {
        try {
            channel.write(out);
            if (out.hasRemaining()) {
                return;
            }
            out = null;
            if (closeAfterWrite) {
                // Half-close, then read what the client still sends: a close with unread bytes would reset the
                // connection, and the client could lose the answer it has not read yet.
                channel.shutdownOutput();
                state = State.DRAINING;
                deadline = System.nanoTime() + LocalHttpServer.DRAIN_NANOS;
                start = end = 0;
                key.interestOps(SelectionKey.OP_READ);
                return;
            }
            state = State.HEAD;
            exchange = null;
            body = null;
            next = null;
            requestBegun = start < end;
            deadline = System.nanoTime() + (requestBegun ? LocalHttpServer.REQUEST_NANOS : LocalHttpServer.IDLE_NANOS);
            key.interestOps(SelectionKey.OP_READ);
            process(); // a request sent behind the last one (pipelining)
        } catch (IOException gone) {
            close();
        }
    }

    /** The answer of the exchange in hand, from whichever thread closed it; null: close without one. */
    void send(byte[] answer) {
        if (state != State.HANDLING) {
            return; // closed meanwhile
        }
        if (answer == null) {
            close();
            return;
        }
        write(answer, exchange.closesAfterAnswer());
    }

    void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        server.closed(this);
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void process() {
        try {
            if (state == State.HEAD) {
                List<byte[]> lines = headLines();
                if (lines == null) {
                    return;
                }
                head(RequestHead.parse(lines));
            }
            if (state == State.BODY) {
                start += body.take(buffer, start, end);
                if (body.complete()) {
                    handOver();
                }
            }
        } catch (Refusal refusal) {
            refuse(refusal);
        }
    }

    /** The head, once it is in: the head handler answers it, or the body is read for the handler it names. */
    private void head(RequestHead head) {
        RequestBody announced = RequestBody.of(head, server.maxBodyBytes());
        String expect = head.header("Expect");
        if (expect != null && !expect.trim().equalsIgnoreCase("100-continue")) {
            throw new Refusal(417, "expectation_failed", "the only Expect understood is 100-continue");
        }
        long skippable = announced.skippable(end - start);
        exchange = new ServerExchange(head, local, remote, !head.keepAlive() || skippable < 0, server.answerTo(this));
        state = State.HANDLING;
        key.interestOps(0);
        HttpHandler handler;
        try {
            handler = server.headHandler().onHead(exchange);
        } catch (IOException | RuntimeException broken) {
            server.failed("answering a request's head", broken);
            close();
            return;
        }
        if (handler == null) {
            if (skippable >= 0) {
                start += (int) skippable; // the body came with the head: skipped, and the connection kept
            }
            exchange.close(); // answered, and its bytes on their way to send(); if not, the connection closes
            return;
        }
        exchange.closeAfterAnswer(!head.keepAlive());
        body = announced;
        next = handler;
        state = State.BODY;
        key.interestOps(SelectionKey.OP_READ);
        deadline = System.nanoTime() + LocalHttpServer.REQUEST_NANOS;
        if (expect != null && !announced.complete() && start == end) {
            try {
                channel.write(ByteBuffer.wrap(Responses.CONTINUE)); // nothing else is being sent: the socket takes these few bytes
            } catch (IOException gone) {
                close();
            }
        }
    }

    private void handOver() {
        exchange.body(body.bytes());
        state = State.HANDLING;
        key.interestOps(0);
        try {
            next.handle(exchange);
        } catch (IOException | RuntimeException broken) {
            server.failed("handing a request over", broken);
            close();
        }
    }

    private void refuse(Refusal refusal) {
        boolean head = exchange != null && exchange.getRequestMethod().equals("HEAD");
        write(Responses.refusal(refusal, head), true);
    }

    private void write(byte[] answer, boolean close) {
        state = State.WRITING;
        out = ByteBuffer.wrap(answer);
        closeAfterWrite = close;
        deadline = System.nanoTime() + LocalHttpServer.WRITE_NANOS;
        key.interestOps(SelectionKey.OP_WRITE);
        writable();
    }

    private void drain(int n) {
        drained += n;
        start = end = 0;
        if (drained > LocalHttpServer.MAX_DRAIN_BYTES) {
            close();
        }
    }

    /**
     * The lines of the head (request line and headers, without CR LF) once the empty line that
     * ends it is in; null before. Empty lines before the request line are skipped (RFC 9112).
     */
    private List<byte[]> headLines() {
        while (start < end && (buffer[start] == '\r' || buffer[start] == '\n') && scanned <= start) {
            start++;
        }
        int from = Math.max(start, scanned);
        for (int i = from; i < end; i++) {
            if (buffer[i] != '\n') {
                continue;
            }
            int previous = i - 1;
            if (previous > start && buffer[previous] == '\r') {
                previous--;
            }
            if (previous > start && buffer[previous] == '\n') {
                List<byte[]> lines = split(start, i + 1);
                start = i + 1;
                scanned = start;
                return lines;
            }
        }
        scanned = end;
        if (end - start >= LocalHttpServer.MAX_HEAD_BYTES) {
            boolean lineEnded = false;
            for (int i = start; i < end && !lineEnded; i++) {
                lineEnded = buffer[i] == '\n';
            }
            throw lineEnded
                    ? new Refusal(431, "headers_too_large", "the request's headers are longer than " + LocalHttpServer.MAX_HEAD_BYTES + " bytes")
                    : new Refusal(414, "uri_too_long", "the request line is longer than " + LocalHttpServer.MAX_HEAD_BYTES + " bytes");
        }
        return null;
    }

    private List<byte[]> split(int from, int to) {
        List<byte[]> lines = new ArrayList<>();
        int lineStart = from;
        for (int i = from; i < to; i++) {
            if (buffer[i] == '\n') {
                int lineEnd = i > lineStart && buffer[i - 1] == '\r' ? i - 1 : i;
                if (lineEnd > lineStart) {
                    lines.add(Arrays.copyOfRange(buffer, lineStart, lineEnd));
                }
                lineStart = i + 1;
            }
        }
        return lines;
    }

    /** Room to read into: the unread bytes moved to the front, or a larger buffer (a head of at most the limit). */
    private void makeRoom() {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            scanned = Math.max(0, scanned - start);
            start = 0;
        } else if (buffer.length <= LocalHttpServer.MAX_HEAD_BYTES) {
            buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, LocalHttpServer.MAX_HEAD_BYTES + 1));
        }
    }
}
