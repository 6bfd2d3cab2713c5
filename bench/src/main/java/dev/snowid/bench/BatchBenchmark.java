package dev.snowid.bench;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.WallClock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A batch of 4,096 IDs — the HTTP API's largest {@code /ids?count=N}.
 *
 * <p>Two views, since a whole millisecond's capacity is at stake: {@code batch4096_cpu} runs on
 * a clock that moves one ms per reading, so capacity never runs out and the score is the CPU
 * cost of reserving and encoding; {@code batch4096_realClock} runs back to back on the wall
 * clock, where a steady stream of full batches is bound by the format to one per ms.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class BatchBenchmark {

    private SnowflakeGenerator onTickingClock;
    private SnowflakeGenerator onWallClock;

    @Setup
    public void setUp() {
        long[] now = {System.currentTimeMillis()};
        WallClock ticking = () -> ++now[0];
        onTickingClock = SnowflakeGenerator.forSlot(Slot.of(1, 2)).window(LeaseWindow.UNBOUNDED).clock(ticking).build();
        onWallClock = SnowflakeGenerator.forSlot(Slot.of(1, 2)).window(LeaseWindow.UNBOUNDED).build();
    }

    @Benchmark
    public long[] batch4096_cpu() {
        return onTickingClock.nextIds(4096);
    }

    @Benchmark
    public long[] batch4096_realClock() {
        return onWallClock.nextIds(4096);
    }

    /** The CPU cost of one ID when capacity is not the limit: the headroom below the format's 244 ns per ID. */
    @Benchmark
    public long single_cpu() {
        return onTickingClock.nextId();
    }

    @Benchmark
    public long[] batch1_realClock() {
        return onWallClock.nextIds(1);
    }
}
