package dev.snowid.local;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of the runner's two lanes ({@link RouteLane}), each with a bounded queue. They get
 * a request only once it was read in full (the HTTP server reads, on a thread of its own), so
 * a slow client never holds one. When a lane's queue is full the request is refused with 503 at once.
 */
final class RequestThreads {

    /** The ids lane: as many requests in parallel as the old shared pool took. */
    static final int IDS_THREADS = 16;
    /** The lease lane: renewals are few and short; four lets a slow one not hold up the others. */
    static final int LEASE_THREADS = 4;
    /** Requests a lane holds waiting for a thread before it refuses with 503. */
    static final int LANE_QUEUE = 64;

    private RequestThreads() {
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
