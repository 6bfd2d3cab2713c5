package dev.snowid.local.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;

/**
 * What the server asks as soon as a request's head is in, before it reads a byte of the body:
 * on the server's one I/O thread, so it must be quick and must not block.
 */
@FunctionalInterface
public interface HeadHandler {

    /**
     * Either answers {@code head} now (sends its answer and closes it; the body is then never
     * read, and the connection closes unless the body was already in) and returns null, or
     * returns the handler that gets the whole request once its body is in. That handler is
     * called on the I/O thread too: it must hand the exchange to other threads, or answer at once.
     *
     * @param head the request without its body: {@link HttpExchange#getRequestBody()} fails
     */
    HttpHandler onHead(HttpExchange head) throws IOException;
}
