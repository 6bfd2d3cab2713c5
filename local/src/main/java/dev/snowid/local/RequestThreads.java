package dev.snowid.local;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local runner's threads, every queue bounded. Readers take a connection's request line and
 * headers off the JDK server and hand the exchange to its {@link RouteLane}'s threads, which read
 * the body and run the lane's handler. A client that stalls mid-request holds only its own
 * thread; the JDK server closes it after {@value #MAX_REQUEST_SECONDS} s. When a lane's queue is
 * full the request is refused with 503 at once; when the readers' queue is full the JDK server
 * closes the new connection (nothing of its request has been read to answer).
 */
final class RequestThreads {

    static final int READERS = 8;
    static final int READER_QUEUE = 256;
    /** The ids lane: as many requests in parallel as the old shared pool took. */
    static final int IDS_THREADS = 16;
    /** The lease lane: renewals are few and short; four lets a slow one not hold up the others. */
    static final int LEASE_THREADS = 4;
    /** Requests a lane holds waiting for a thread before it refuses with 503. */
    static final int LANE_QUEUE = 64;
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

    static ThreadPoolExecutor readers() {
        return bounded("snowid-local-reader-", READERS, READER_QUEUE);
    }

    static ThreadPoolExecutor lane(RouteLane lane) {
        return lane == RouteLane.LEASES ? bounded("snowid-local-leases-", LEASE_THREADS, LANE_QUEUE)
                : bounded("snowid-local-ids-", IDS_THREADS, LANE_QUEUE);
    }

    /** Fixed threads, a queue of {@code queue}, and {@link java.util.concurrent.RejectedExecutionException} beyond it. */
    static ThreadPoolExecutor bounded(String name, int threads, int queue) {
        AtomicInteger count = new AtomicInteger();
        return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(queue), task -> {
            Thread thread = new Thread(task, name + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }, new ThreadPoolExecutor.AbortPolicy());
    }
}
