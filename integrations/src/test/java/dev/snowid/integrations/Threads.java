package dev.snowid.integrations;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/** Runs a body on real threads released together, and fails with the first thread's failure. */
public final class Threads {

    /** One thread's work; {@code thread} is 0 to threads - 1. */
    public interface Body {
        void run(int thread) throws Exception;
    }

    private Threads() {
    }

    public static void run(int threads, Body body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    body.run(thread);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "inserts-" + t);
            worker.start();
            started.add(worker);
        }
        start.countDown();
        for (Thread worker : started) {
            worker.join();
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(failures.size() + " of " + threads + " threads failed", failures.peek());
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }
}
