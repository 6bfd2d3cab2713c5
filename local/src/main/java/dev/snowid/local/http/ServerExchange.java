package dev.snowid.local.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One request and its answer, as the JDK's {@link HttpExchange} so that handlers are plain
 * {@code HttpHandler}s: the request is read in full before a handler gets it (its body is
 * bytes in memory), and the answer is collected in memory and sent by the connection's event
 * loop when the exchange is closed, so no handler thread ever waits on a slow client.
 */
final class ServerExchange extends HttpExchange {

    private final RequestHead head;
    private final InetSocketAddress local;
    private final InetSocketAddress remote;
    /** Gets the serialized answer (null: close without one) once, when the exchange closes. */
    private final Consumer<byte[]> answered;
    private final Headers responseHeaders = new Headers();
    private final ByteArrayOutputStream responseBody = new ByteArrayOutputStream(512);
    private final Map<String, Object> attributes = new HashMap<>();
    private volatile byte[] requestBody;
    private volatile boolean closeAfterAnswer;
    private int status = -1;
    private boolean finished;

    ServerExchange(RequestHead head, InetSocketAddress local, InetSocketAddress remote, boolean closeAfterAnswer, Consumer<byte[]> answered) {
        this.head = head;
        this.local = local;
        this.remote = remote;
        this.closeAfterAnswer = closeAfterAnswer;
        this.answered = answered;
    }

    RequestHead head() {
        return head;
    }

    void body(byte[] body) {
        this.requestBody = body;
    }

    /** Whether the answer tells the client the connection closes after it (set before a handler gets the exchange). */
    void closeAfterAnswer(boolean close) {
        this.closeAfterAnswer = close;
    }

    boolean closesAfterAnswer() {
        return closeAfterAnswer;
    }

    @Override
    public Headers getRequestHeaders() {
        return head.headers();
    }

    @Override
    public Headers getResponseHeaders() {
        return responseHeaders;
    }

    @Override
    public URI getRequestURI() {
        return head.uri();
    }

    @Override
    public String getRequestMethod() {
        return head.method();
    }

    /** None: this server has one handler for every path. */
    @Override
    public HttpContext getHttpContext() {
        return null;
    }

    @Override
    public InputStream getRequestBody() {
        byte[] body = requestBody;
        if (body == null) {
            throw new IllegalStateException("the body is not read yet: only the head is in");
        }
        return new ByteArrayInputStream(body);
    }

    @Override
    public OutputStream getResponseBody() {
        return new OutputStream() {
            @Override
            public void write(int b) {
                responseBody.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                responseBody.write(b, off, len);
            }

            @Override
            public void close() {
                ServerExchange.this.close();
            }
        };
    }

    /** As the JDK's: a length of -1 means no body; the length is taken from what is written. */
    @Override
    public synchronized void sendResponseHeaders(int code, long length) {
        if (status >= 0) {
            throw new IllegalStateException("the answer's headers were sent already");
        }
        status = code;
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return remote;
    }

    @Override
    public synchronized int getResponseCode() {
        return status;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return local;
    }

    @Override
    public String getProtocol() {
        return head.http10() ? "HTTP/1.0" : "HTTP/1.1";
    }

    @Override
    public synchronized Object getAttribute(String name) {
        return attributes.get(name);
    }

    @Override
    public synchronized void setAttribute(String name, Object value) {
        attributes.put(name, value);
    }

    @Override
    public void setStreams(InputStream in, OutputStream out) {
        throw new UnsupportedOperationException("no filters on this server");
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return null;
    }

    /** Ends the exchange: hands its answer to the server (nothing, and the connection closes, if none was begun). */
    @Override
    public void close() {
        byte[] answer;
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
            answer = status < 0 ? null
                    : Responses.of(status, responseHeaders, responseBody.toByteArray(), head.method().equals("HEAD"), closeAfterAnswer);
        }
        answered.accept(answer);
    }
}
