package dev.snowid.testing.leaseapi;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.SnowidClient;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.Lease;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.SlotMap;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real lease API for tests: the function's local runner (the same handler as on Lambda) on a
 * test's DynamoDB-compatible engine. Its pool: {@code slots} slots for lease holders (machines 1
 * to {@code slots} of one datacenter; machine 0 serves the runner's own {@code /ids}, as the
 * template splits the pool), leases of {@value #LEASE_MILLIS} ms, the shortest the function
 * allows, so that long runs cross renewals. Also what an operator or a second holder can do to
 * the pool, through the lease table itself: take a slot over, hold every free slot.
 */
public final class LeaseApi implements AutoCloseable {

    /** The pool's datacenter unless a test asks for another. */
    public static final int DATACENTER = 21;
    /** The pool's holder slots unless a test asks for another number. */
    public static final int SLOTS = 8;
    /** The runner's bearer secret ({@code SNOWID_LEASE_SECRET}). */
    public static final String SECRET = "lease-api-test-562651fc9d6244cbb845cbb81f5a653544b34619d55af73e9d55bca297d0918e";
    public static final long LEASE_MILLIS = 5_000;
    private static final String INTRUDER = "test-intruder";

    private static LeaseApi shared;

    private final LocalRunner runner;
    private final TestTable table;
    private final String secret;
    private final int datacenter;
    private final int slots;
    private final List<Lease> held = new ArrayList<>();
    private DynamoDbLeaseStore store;

    private LeaseApi(Map<String, String> environment, TestTable table, int datacenter, int slots) {
        this.runner = LocalRunner.start(environment);
        this.table = table;
        this.secret = environment.get(LocalSettings.LOCAL_LEASE_SECRET);
        this.datacenter = datacenter;
        this.slots = slots;
    }

    /**
     * The runner's environment for {@code slots} holder slots in {@code datacenter} on
     * {@code table}: a copy, for a test to change before {@link LocalRunner#start}.
     */
    public static Map<String, String> environment(TestTable table, int datacenter, int slots) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put(FunctionSettings.LEASE_MILLIS, Long.toString(LEASE_MILLIS));
        env.put(FunctionSettings.MAX_CLOCK_SKEW_MILLIS, "250"); // the most a 5 s lease allows: one machine, one clock
        env.put(FunctionSettings.DATACENTERS, Integer.toString(datacenter));
        env.put(FunctionSettings.MACHINES, "0-" + slots);
        env.put(FunctionSettings.AGENT_SLOTS, Integer.toString(slots));
        return env;
    }

    /** A runner on {@code table} with {@code slots} holder slots in {@code datacenter}; the caller closes it. */
    public static LeaseApi start(TestTable table, int datacenter, int slots) {
        return new LeaseApi(environment(table, datacenter, slots), table, datacenter, slots);
    }

    /**
     * The runner as the README starts it (its bearer secret {@code secret}, every setting of the
     * function at its default), but on {@code table} instead of its own engine; the caller closes it.
     */
    public static LeaseApi startAsTheReadmeDoes(TestTable table, String secret) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(LocalSettings.LOCAL_LEASE_SECRET, secret);
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        return new LeaseApi(env, table, 0, 0); // no pool of the test's: holdAllFree() holds nothing
    }

    /** A runner on {@code table} with {@link #SLOTS} holder slots in {@link #DATACENTER}; the caller closes it. */
    public static LeaseApi start(TestTable table) {
        return start(table, DATACENTER, SLOTS);
    }

    /** A runner with {@code slots} holder slots in {@link #DATACENTER}, on a fresh table; the caller closes it. */
    public static LeaseApi start(int slots) {
        return start(DynamoDbEngine.newTable("lease-api"), DATACENTER, slots);
    }

    /** One runner for the whole test JVM ({@link #SLOTS} slots), for apps a test framework keeps open between tests. */
    public static synchronized LeaseApi shared() {
        if (shared == null) {
            shared = start(SLOTS);
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "lease-api-stop"));
        }
        return shared;
    }

    public URI baseUri() {
        return runner.baseUri();
    }

    public String url() {
        return baseUri().toString();
    }

    /** A client that leases from this API; the caller closes it. */
    public SnowidClient newClient() {
        return SnowidClient.builder().leaseUrl(url()).secret(secret).build();
    }

    /**
     * Takes {@code slot} over as another holder would whose clock says its lease ran out: one
     * conditional write on the table, bumping the fence, so the holder's next renewal is refused.
     */
    public void takeOver(Slot slot) {
        long future = System.currentTimeMillis() + 3_600_000;
        Lease taken = store().tryAcquire(slot, INTRUDER + "-owner", INTRUDER, future, future + LEASE_MILLIS)
                .orElseThrow(() -> new AssertionError("could not take " + slot + " over"));
        held.add(taken);
    }

    /**
     * Holds every holder slot that is free now for {@code millis}, as another application would;
     * {@link #freeAll()} gives them back. The API tells a refused holder to retry when the earliest of them ends.
     */
    public void holdAllFree(long millis) {
        long now = System.currentTimeMillis();
        for (int machine = 1; machine <= slots; machine++) {
            Optional<Lease> lease = store().tryAcquire(Slot.of(datacenter, machine), INTRUDER + "-owner-" + machine, INTRUDER, now,
                    now + millis);
            lease.ifPresent(held::add);
        }
    }

    /** Releases every slot {@link #takeOver} and {@link #holdAllFree} took. */
    public void freeAll() {
        for (Lease lease : held) {
            store().release(lease.slot(), lease.owner(), lease.fence(), lease.window().floor());
        }
        held.clear();
    }

    /** The pool as the API shows it to operators: {@code GET /leases}. */
    public SlotMap slotMap() {
        return new HttpLeaseSource(HttpUrl.parse(url()), () -> secret, "slot-map-reader").slotMap();
    }

    /** True when the slot map shows {@code slot} held by someone. */
    public boolean held(Slot slot) {
        long now = System.currentTimeMillis();
        return slotMap().leases().stream().anyMatch(entry -> entry.lease().slot().equals(slot) && entry.lease().heldAt(now));
    }

    /** The slots the slot map shows held now by a holder whose label starts with {@code holder}, in the map's order. */
    public List<Slot> heldBy(String holder) {
        long now = System.currentTimeMillis();
        List<Slot> slots = new ArrayList<>();
        for (SlotMap.Entry entry : slotMap().leases()) {
            if (entry.lease().holder().startsWith(holder) && entry.lease().heldAt(now)) {
                slots.add(entry.lease().slot());
            }
        }
        return slots;
    }

    /** The lease table itself, as a second holder reaches it. */
    private synchronized DynamoDbLeaseStore store() {
        if (store == null) {
            store = DynamoDbLeaseStore.builder().table(table.name()).clock(WallClock.SYSTEM)
                    .client(LeaseTableClient.builder().endpoint(table.endpoint())).build();
        }
        return store;
    }

    @Override
    public synchronized void close() {
        runner.close();
        if (store != null) {
            store.close();
        }
    }
}
