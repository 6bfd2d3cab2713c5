package com.acme.legacy;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code LegacyApp <ids file> <threads> <calls per thread>}: calls the three legacy methods from
 * many threads at once, then writes every ID it got to the file. It knows nothing of snowid.
 */
public final class LegacyApp {

    public static void main(String[] args) throws Exception {
        String file = args[0];
        int threads = Integer.parseInt(args[1]);
        int perThread = Integer.parseInt(args[2]);
        long[][] results = new long[threads][];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            workers.add(new Thread(() -> results[index] = callMany(perThread)));
        }
        workers.forEach(Thread::start);
        for (Thread worker : workers) {
            worker.join();
        }
        System.out.println("nextInt " + LegacyIds.nextInt());
        IdsOutput.write(file, results);
        System.out.println("DONE " + (long) threads * perThread);
    }

    private static long[] callMany(int count) {
        LegacyIds ids = new LegacyIds();
        long[] got = new long[count];
        for (int i = 0; i < count; i++) {
            switch (i % 3) {
                case 0: got[i] = LegacyIds.nextLong(); break;
                case 1: got[i] = ids.nextBoxed(); break;
                default: got[i] = asNumber(ids.nextString("legacy")); break;
            }
        }
        return got;
    }

    /** The original body answers "legacy-N", which is no number: the test sees -1 and fails. */
    private static long asNumber(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
