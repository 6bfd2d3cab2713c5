package dev.snowid.local;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local runner's request threads. Each connection's request is read on one of them, so a
 * client that stalls mid-request holds only its own thread; the JDK server closes it after
 * {@value #MAX_REQUEST_SECONDS} s. The handler itself still takes one request at a time
 * ({@link GatewayBridge}).
 */
final class RequestThreads {

    static final int THREADS = 16;
    /** Time a client has to send its request (headers and body); beyond it the JDK server closes the connection. */
    static final int MAX_REQUEST_SECONDS = 10;
    /** Above the handler's worst case (12 s against a slow store) and a curl's patience. */
    static final int MAX_RESPONSE_SECONDS = 30;

    static {
        // Read once, when the JDK server's configuration class loads: set before the first HttpServer is made.
        System.setProperty("sun.net.httpserver.maxReqTime", Integer.toString(MAX_REQUEST_SECONDS));
        System.setProperty("sun.net.httpserver.maxRspTime", Integer.toString(MAX_RESPONSE_SECONDS));
    }

    private RequestThreads() {
    }

    static ExecutorService pool() {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(THREADS, task -> {
            Thread thread = new Thread(task, "snowid-local-request-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }
}
