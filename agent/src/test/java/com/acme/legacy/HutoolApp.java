package com.acme.legacy;

import cn.hutool.core.lang.Snowflake;
import cn.hutool.core.lang.generator.Generator;
import cn.hutool.core.lang.generator.SnowflakeGenerator;
import cn.hutool.core.util.IdUtil;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code HutoolApp <ids file> <threads> <calls per thread>}: takes IDs from every public path of
 * Hutool's Snowflake at once, from many threads, as applications do, then writes them all. Its
 * own generators use nodes 1:1 to 5:5, so an ID that did not come from snowid's node shows.
 * Every tenth call is the legacy {@code LegacyIds.nextLong()}, for presets mixed with targets.
 */
public final class HutoolApp {

    static final int PATHS = 10;

    public static void main(String[] args) throws Exception {
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
        IdsOutput.write(args[0], results);
        System.out.println("DONE " + (long) threads * perThread);
    }

    private static long[] callMany(int count) {
        Snowflake created = IdUtil.createSnowflake(2, 2);
        Snowflake constructed = new Snowflake(3, 3);
        SnowflakeGenerator generator = new SnowflakeGenerator(4, 4);
        Generator<Long> viaInterface = new SnowflakeGenerator(5, 5); // calls the bridge method next()Object
        long[] got = new long[count];
        for (int i = 0; i < count; i++) {
            switch (i % PATHS) {
                case 0: got[i] = IdUtil.getSnowflakeNextId(); break;
                case 1: got[i] = Long.parseLong(IdUtil.getSnowflakeNextIdStr()); break;
                case 2: got[i] = IdUtil.getSnowflake(1, 1).nextId(); break;
                case 3: got[i] = Long.parseLong(IdUtil.getSnowflake().nextIdStr()); break;
                case 4: got[i] = created.nextId(); break;
                case 5: got[i] = Long.parseLong(constructed.nextIdStr()); break;
                case 6: got[i] = generator.next(); break;
                case 7: got[i] = viaInterface.next(); break;
                case 8: got[i] = constructed.nextId(); break;
                default: got[i] = LegacyIds.nextLong(); break;
            }
        }
        return got;
    }
}
