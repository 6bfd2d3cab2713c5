package dev.snowid.spring.tests;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.Lease;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import dev.snowid.protocol.SlotMap;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real lease API for the starter's tests: the function's local runner (its real handler) on a
 * real DynamoDB-compatible engine, pool datacenter {@value #DATACENTER}, 5 s leases (the
 * shortest allowed, so that runs cross renewals). The one class that knows the runner: every
 * test reaches it through here. Also what an operator or a second holder could do to the pool,
 * through the lease table itself: take a slot over, hold every free slot.
 */
public final class LeaseApi implements AutoCloseable {

    public static final int DATACENTER = 21;
    public static final String SECRET = "starter-test-secret-3f9c1a";
    private static final String INTRUDER = "test-intruder";

    private static LeaseApi shared;

    private final LocalRunner runner;
    private final TestTable table;
    private final DynamoDbLeaseStore store;
    private final List<Lease> held = new ArrayList<>();
    private final int machines;

    private LeaseApi(LocalRunner runner, TestTable table, int machines) {
        this.runner = runner;
        this.table = table;
        this.store = DynamoDbLeaseStore.builder().table(table.name()).clock(WallClock.SYSTEM)
                .client(LeaseTableClient.builder().endpoint(table.endpoint())).build();
        this.machines = machines;
    }

    /** A runner whose lease routes have {@code machines} slots, on a fresh table; the caller closes it. */
    public static LeaseApi start(int machines) {
        TestTable table = DynamoDbEngine.newTable("spring");
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put(FunctionSettings.LEASE_MILLIS, "5000");
        env.put(FunctionSettings.MAX_CLOCK_SKEW_MILLIS, "250"); // the most a 5 s lease allows: one machine, one clock
        env.put(FunctionSettings.DATACENTERS, Integer.toString(DATACENTER));
        // The lease routes' part is machines 1..n; machine 0 is the runner's own (it splits its pool as the template does).
        env.put(FunctionSettings.MACHINES, "0-" + machines);
        env.put(FunctionSettings.AGENT_SLOTS, Integer.toString(machines));
        return new LeaseApi(LocalRunner.start(env), table, machines);
    }

    /** One runner for the whole test JVM (eight slots), for the apps Spring's test context cache keeps open. */
    public static synchronized LeaseApi shared() {
        if (shared == null) {
            shared = start(8);
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "lease-api-stop"));
        }
        return shared;
    }

    public String url() {
        return runner.baseUri().toString();
    }

    /**
     * Takes {@code slot} over as another holder would whose clock says its lease ran out: one
     * conditional write on the table, bumping the fence, so the holder's next renewal is refused.
     */
    public void takeOver(Slot slot) {
        long future = System.currentTimeMillis() + 3_600_000;
        Lease taken = store.tryAcquire(slot, INTRUDER + "-owner", INTRUDER, future, future + 5_000)
                .orElseThrow(() -> new AssertionError("could not take " + slot + " over"));
        held.add(taken);
    }

    /**
     * Holds every slot that is free now for {@code millis}, as another application would; {@link #freeAll()}
     * gives them back. The API tells a refused holder to retry when the earliest of them ends.
     */
    public void holdAllFree(long millis) {
        long now = System.currentTimeMillis();
        for (int machine = 1; machine <= machines; machine++) { // the lease routes' part
            Optional<Lease> lease = store.tryAcquire(Slot.of(DATACENTER, machine), INTRUDER + "-owner-" + machine, INTRUDER, now,
                    now + millis);
            lease.ifPresent(held::add);
        }
    }

    /** Releases every slot {@link #takeOver} and {@link #holdAllFree} took. */
    public void freeAll() {
        for (Lease lease : held) {
            store.release(lease.slot(), lease.owner(), lease.fence(), lease.window().floor());
        }
        held.clear();
    }

    /** The pool as the API shows it to operators: {@code GET /leases}. */
    public SlotMap slotMap() {
        try {
            return new HttpLeaseSource(new URL(url()), () -> SECRET, "slot-map-reader").slotMap();
        } catch (MalformedURLException e) {
            throw new AssertionError(e);
        }
    }

    /** True when the slot map shows {@code slot} held by someone. */
    public boolean held(Slot slot) {
        long now = System.currentTimeMillis();
        return slotMap().leases().stream().anyMatch(entry -> entry.lease().slot().equals(slot) && entry.lease().heldAt(now));
    }

    @Override
    public void close() {
        runner.close();
        store.close();
    }
}
