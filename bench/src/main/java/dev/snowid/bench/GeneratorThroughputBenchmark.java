package dev.snowid.bench;

import cn.hutool.core.lang.Snowflake;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import java.util.concurrent.TimeUnit;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sustained IDs per second of one node, on the real clock. The format allows 4,096 per ms,
 * i.e. 4,096,000/s: a generator can only approach that, so results read as a ratio to it.
 * Peers in the same run: CosId's {@code MillisecondSnowflakeId} (the strongest Java peer, set to
 * the same 41/10/12 layout and epoch), Hutool's {@code Snowflake} and Twitter's 2010 {@code IdWorker}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class GeneratorThroughputBenchmark {

    private SnowflakeGenerator snowid;
    private MillisecondSnowflakeId cosid;
    private Snowflake hutool;
    private TwitterIdWorker2010 twitter;

    @Setup
    public void setUp() {
        snowid = SnowflakeGenerator.forSlot(Slot.of(1, 2)).window(LeaseWindow.UNBOUNDED).build();
        cosid = new MillisecondSnowflakeId(SnowflakeCodec.TWITTER.epochMillis(), 41, 10, 12, Slot.of(1, 2).index());
        hutool = new Snowflake(2, 1);
        twitter = new TwitterIdWorker2010(2, 1);
    }

    @Benchmark
    @Threads(1)
    public long snowid_1thread() {
        return snowid.nextId();
    }

    @Benchmark
    @Threads(2)
    public long snowid_2threads() {
        return snowid.nextId();
    }

    @Benchmark
    @Threads(1)
    public long cosid_1thread() {
        return cosid.generate();
    }

    @Benchmark
    @Threads(2)
    public long cosid_2threads() {
        return cosid.generate();
    }

    @Benchmark
    @Threads(1)
    public long hutool_1thread() {
        return hutool.nextId();
    }

    @Benchmark
    @Threads(2)
    public long hutool_2threads() {
        return hutool.nextId();
    }

    @Benchmark
    @Threads(1)
    public long twitter2010_1thread() {
        return twitter.nextId();
    }

    @Benchmark
    @Threads(2)
    public long twitter2010_2threads() {
        return twitter.nextId();
    }
}
