package dev.snowid.spring.tests;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs {@code perThread} calls on each of {@code threads} real threads, started together; the results of all. */
public final class Threads {

    private Threads() {
    }

    public static List<Long> run(int threads, int perThread, Callable<Long> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(pool.submit(() -> {
                    start.await();
                    List<Long> mine = new ArrayList<>(perThread);
                    for (int i = 0; i < perThread; i++) {
                        mine.add(call.call());
                    }
                    return mine;
                }));
            }
            start.countDown();
            List<Long> all = Collections.synchronizedList(new ArrayList<>());
            for (Future<List<Long>> result : results) {
                all.addAll(result.get(5, TimeUnit.MINUTES));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
