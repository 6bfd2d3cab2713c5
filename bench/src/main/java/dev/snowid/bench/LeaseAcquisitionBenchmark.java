package dev.snowid.bench;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.dynalite.Dynalite;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of leasing a slot from the pool on dynalite (a local engine: this is the client's and
 * protocol's cost, not DynamoDB's network), at a given share of the pool already held by
 * others. Each operation is one acquisition and its release (one more round trip) so the
 * occupancy stays put. Round trips per acquisition are counted by LeaseRoundTripsTest in lambda.
 *
 * <p>Run: {@code mvn -q -pl bench -am package -DskipTests && java -jar bench/target/benchmarks.jar LeaseAcquisition}
 * from the repository root (dynalite is found under dynalite/).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class LeaseAcquisitionBenchmark {

    private static final SlotPool POOL = SlotPool.of(0, 3, 0, 31);

    @Param({"0", "50", "90", "99"})
    public int occupancyPercent;

    private Dynalite dynalite;
    private DynamoDbLeaseStore store;
    private PooledLeaseSource source;

    @Setup(Level.Trial)
    public void startEngine() {
        dynalite = Dynalite.start();
        String table = "bench-" + occupancyPercent;
        LeaseTable.createIfMissing(dynalite.endpoint(), table);
        store = DynamoDbLeaseStore.builder().table(table).client(LeaseTableClient.builder().endpoint(dynalite.endpoint())).build();
        List<Slot> slots = new ArrayList<>(POOL.slots());
        Collections.shuffle(slots, new Random(occupancyPercent));
        long now = System.currentTimeMillis();
        for (Slot slot : slots.subList(0, POOL.size() * occupancyPercent / 100)) {
            store.tryAcquire(slot, "someone-else", "bench", now, now + TimeUnit.HOURS.toMillis(2)).orElseThrow();
        }
        source = new PooledLeaseSource(store, POOL, LeaseTerms.DEFAULT, WallClock.SYSTEM, "bench");
    }

    @TearDown(Level.Trial)
    public void stopEngine() {
        store.close();
        dynalite.close();
    }

    @Benchmark
    public Lease acquireAndRelease() {
        Lease lease = source.acquire();
        source.release(lease, 0);
        return lease;
    }
}
