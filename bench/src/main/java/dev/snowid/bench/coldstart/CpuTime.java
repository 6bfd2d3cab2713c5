package dev.snowid.bench.coldstart;

import java.time.Duration;

/** CPU time this process has used so far, all threads (the JIT's and the GC's included), in ms. */
final class CpuTime {

    private CpuTime() {
    }

    static long millis() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
    }
}
