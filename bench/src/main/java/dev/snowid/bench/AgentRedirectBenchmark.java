package dev.snowid.bench;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeGenerator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a legacy method redirected by the agent costs per call, against calling the generator
 * directly in the same JVM. The redirected method's body is a static call to the bridge on the
 * bootstrap class loader with the target's index; the bridge reads the per-target sources
 * through a volatile field, and the target's source calls the agent's generator and counts the
 * call (a {@code LongAdder}) for the report at shutdown.
 *
 * <p>Both paths issue real IDs on the wall clock, and one node issues at most 4,096 per ms
 * (244 ns each): called back to back, both would wait for the next millisecond and the
 * difference would drown. So each operation first burns a fixed amount of CPU
 * ({@link Blackhole#consumeCPU}, more than 244 ns), keeping issuance below the format's limit;
 * {@code baseline} measures that burn alone. Extra cost of the redirect =
 * {@code redirected*} − {@code direct*}.
 *
 * <p>Run from the repository root (the agent path is relative):
 * {@code java -jar bench/target/benchmarks.jar AgentRedirectBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {
        "-javaagent:agent/target/snowid-agent.jar",
        "-Dsnowid.node=1:2",
        "-Dsnowid.targets=dev.snowid.bench.LegacyIdSource#nextLong,dev.snowid.bench.LegacyIdSource#nextString"})
@State(Scope.Thread)
public class AgentRedirectBenchmark {

    /** CPU burnt per operation so that IDs are issued below 4,096 per ms. */
    @Param("250")
    public long burn;

    private SnowflakeGenerator generator;

    @Setup
    public void setUp() {
        generator = SnowflakeGenerator.forSlot(Slot.of(3, 4)).window(LeaseWindow.UNBOUNDED).build();
    }

    @Benchmark
    public void baseline() {
        Blackhole.consumeCPU(burn);
    }

    @Benchmark
    public long directLong() {
        Blackhole.consumeCPU(burn);
        return generator.nextId();
    }

    @Benchmark
    public long redirectedLong() {
        Blackhole.consumeCPU(burn);
        return LegacyIdSource.nextLong();
    }

    @Benchmark
    public String directString() {
        Blackhole.consumeCPU(burn);
        return Long.toString(generator.nextId());
    }

    @Benchmark
    public String redirectedString() {
        Blackhole.consumeCPU(burn);
        return LegacyIdSource.nextString();
    }
}
