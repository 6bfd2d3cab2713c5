package dev.snowid.agent.cli;

import dev.snowid.LeaseWindow;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.Slot;
import dev.snowid.client.ClientLog;
import dev.snowid.client.FirstLease;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.LeaseSecretRefusedException;
import dev.snowid.internal.WarningCode;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.LeaseAuthMode;
import dev.snowid.protocol.RegionClaims;
import dev.snowid.protocol.SlotMap;
import dev.snowid.region.Block;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code check <lease url>}: the deployment check an operator runs right after deploying (or
 * against the local runner). One line per step; the first failing step ends the check with exit
 * status 1 and its name, after giving back a lease it took. Exit 2: wrong arguments.
 *
 * <p>The steps, in order: the credentials, {@code secret} (bearer) or {@code signature} and
 * {@code principal} (IAM: API Gateway verified the signature, the function admits the caller),
 * each named when its refusal fails the check; {@code lease} (POST /leases, asked again with the
 * same request id while the API settles nothing, within the start-up deadline); {@code clock} (this
 * machine's clock against the API's Date header, within the default tolerance); {@code issue} (IDs
 * under the lease decode to its slot and lie inside its window); {@code slot-map} (GET /leases:
 * occupancy per part, our lease the check's only slot); {@code region} (the block claimed for this
 * stack alone, or the stack unguarded); {@code ids} (GET /ids decodes with the API's epoch);
 * {@code release} (DELETE /leases/{slot}). Every request carries the credentials.
 */
public final class CheckCommand {

    /** Who the slot map shows the check's lease held by: this process, so that two checks at once tell their slots apart. */
    static final String HOLDER = "snowid-agent check " + ManagementFactory.getRuntimeMXBean().getName();
    /** IDs issued under the check's lease: enough to cross a millisecond, few enough to be instant. */
    static final int ISSUED = 5_000;
    /** IDs asked of GET /ids. */
    static final int API_IDS = 3;

    private final String url;
    private final LeaseApiArguments call;
    private final HttpLeaseSource source;
    private final PrintStream out;
    private final WallClock clock = WallClock.SYSTEM;
    private int passed;

    private CheckCommand(LeaseApiArguments call, PrintStream out) {
        String given = call.url.toString();
        this.url = given.endsWith("/") ? given.substring(0, given.length() - 1) : given;
        this.call = call;
        this.source = call.api;
        this.out = out;
    }

    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        LeaseApiArguments call = LeaseApiArguments.read("check", args, env, HOLDER, "the check takes a lease, which needs", err);
        if (call == null) {
            return LeaseApiArguments.USAGE;
        }
        return new CheckCommand(call, out).run(err);
    }

    private int run(PrintStream err) {
        out.println("check " + url);
        Lease lease;
        try {
            lease = FirstLease.acquire(source, call.settings.get(CliSettings.STARTUP_DEADLINE), 0, new Asides());
        } catch (LeaseSecretRefusedException e) {
            return credentialsRefused(e, err);
        } catch (RuntimeException e) {
            return failed("lease", e, err);
        }
        credentialsAccepted();
        long epoch = source.epochMillis().orElse(SnowflakeCodec.TWITTER_EPOCH_MILLIS);
        SnowflakeCodec codec = SnowflakeCodec.withEpoch(epoch);
        LeaseWindow window = lease.window();
        ok("lease", "slot " + lease.slot() + " (fence " + lease.fence() + "), window " + window.floor() + " to "
                + window.expiresAt() + " (unix ms, " + window.remainingMillis(clock.millis()) + " ms left), epoch " + epoch);
        long lastIssued = 0;
        String step = "clock";
        try {
            clock();
            step = "issue";
            lastIssued = issue(lease, codec);
            step = "slot-map";
            SlotMap map = slotMap(lease);
            step = "region";
            region(map, lease);
            step = "ids";
            ids(codec);
        } catch (RuntimeException | CheckFailed e) {
            giveBack(lease, lastIssued);
            return failed(step, e, err);
        }
        try {
            source.release(lease, lastIssued);
        } catch (RuntimeException e) {
            return failed("release", e, err);
        }
        ok("release", "slot " + lease.slot() + " given back");
        out.println("check passed: " + passed + " steps");
        return 0;
    }

    /** The lease was granted: the credentials were accepted, each part of them its own step. */
    private void credentialsAccepted() {
        if (call.mode == LeaseAuthMode.AWS_IAM) {
            ok("signature", source.authorization() + ": verified by the API's IAM authorization");
            ok("principal", "the function admits this caller (its SNOWID_LEASE_PRINCIPALS)");
        } else {
            ok("secret", "the lease API accepted the bearer secret");
        }
    }

    /**
     * The lease API refused the credentials: in IAM mode, either API Gateway refused the signature
     * (an answer without the function's code), or the function does not list the verified caller
     * ({@code forbidden}, naming its ARN): each its own failed step.
     */
    private int credentialsRefused(LeaseSecretRefusedException e, PrintStream err) {
        if (call.mode != LeaseAuthMode.AWS_IAM) {
            return failed("secret", e.getMessage() + "; set " + CliSettings.SECRET_VARIABLE + " to the secret whose SHA-256 the"
                    + " function holds", err);
        }
        if (e.code() != ErrorCode.FORBIDDEN) {
            return failed("signature", e.getMessage() + "; the API did not accept this machine's signature: check its AWS"
                    + " credentials (the SDK's default chain), " + CliSettings.REGION_VARIABLE + ", and that the role may"
                    + " execute-api:Invoke the API", err);
        }
        ok("signature", source.authorization() + ": verified by the API's IAM authorization");
        return failed("principal", e, err); // the function's words name the caller and SNOWID_LEASE_PRINCIPALS
    }

    private void clock() throws CheckFailed {
        OptionalLong skew = source.clockSkewMillis();
        if (!skew.isPresent()) {
            throw new CheckFailed("the lease API's answer had no readable Date header");
        }
        long tolerated = LeaseTerms.DEFAULT.toleratedSkewMillis();
        String measured = "this clock is " + Math.abs(skew.getAsLong()) + " ms " + (skew.getAsLong() >= 0 ? "ahead of" : "behind")
                + " the API's (Date header, ±500 ms plus half the round trip)";
        if (Math.abs(skew.getAsLong()) > tolerated) {
            throw new CheckFailed(measured + ", more than the default tolerance of " + tolerated
                    + " ms: holders on this clock would give their leases back; fix the machine's time sync (NTP)");
        }
        ok("clock", measured + "; tolerated " + tolerated + " ms");
    }
    /** Issues {@link #ISSUED} IDs under the lease; returns the last one's time. */
    private long issue(Lease lease, SnowflakeCodec codec) throws CheckFailed {
        awaitFloor(lease.window());
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(lease.slot()).window(lease.window()).codec(codec).build();
        long previous = -1;
        for (int i = 0; i < ISSUED; i++) {
            long id = generator.nextId();
            SnowflakeId decoded = codec.decode(id);
            if (!decoded.slot().equals(lease.slot())) {
                throw new CheckFailed("ID " + id + " decodes to slot " + decoded.slot() + ", not the leased " + lease.slot());
            }
            if (!lease.window().contains(decoded.unixMillis())) {
                throw new CheckFailed("ID " + id + " has time " + decoded.unixMillis() + ", outside the window " + lease.window());
            }
            if (id <= previous) {
                throw new CheckFailed("ID " + id + " does not increase on " + previous);
            }
            previous = id;
        }
        long last = generator.close();
        ok("issue", ISSUED + " IDs, increasing, all slot " + lease.slot() + ", all inside the window; last " + previous);
        return last;
    }

    /** A fresh lease may start a little ahead (the previous holder's last ID); wait for it within the window. */
    private void awaitFloor(LeaseWindow window) throws CheckFailed {
        while (clock.millis() < window.floor()) {
            if (window.floor() >= window.expiresAt()) {
                throw new CheckFailed("the lease's window " + window + " is empty");
            }
            try {
                Thread.sleep(Math.min(100, Math.max(1, window.floor() - clock.millis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CheckFailed("interrupted while waiting for the lease's floor");
            }
        }
    }

    private SlotMap slotMap(Lease lease) throws CheckFailed {
        SlotMap map = source.slotMap();
        List<Slot> ours = new ArrayList<>();
        for (SlotMap.Entry entry : map.leases()) {
            if (entry.lease().holder().equals(HOLDER) && entry.lease().heldAt(clock.millis())) {
                ours.add(entry.lease().slot());
            }
        }
        if (!ours.equals(Collections.singletonList(lease.slot()))) {
            throw new CheckFailed("the slot map shows '" + HOLDER + "' holding " + ours + ", not the leased slot " + lease.slot()
                    + " alone");
        }
        StringBuilder parts = new StringBuilder();
        for (SlotMap.Part part : map.parts()) {
            parts.append(parts.length() == 0 ? "" : ", ").append(part.name()).append(' ').append(part.held()).append('/')
                    .append(part.size()).append(" held");
        }
        ok("slot-map", parts + "; ours among them, the check's only slot; leases last " + map.leaseMillis() + " ms");
        return map;
    }

    /**
     * The stack's block is claimed for this stack in the claim registry, and no other block is
     * (a claim it left behind); a stack without a registry passes, and says it is unguarded.
     */
    private void region(SlotMap map, Lease lease) throws CheckFailed {
        RegionClaims region = map.region();
        if (region == null) {
            throw new CheckFailed("the slot map names no region: the function predates regions; deploy this version's");
        }
        if (RegionClaims.UNGUARDED.equals(region.guard())) {
            ok("region", region.self().region() + ": unguarded (no claim registry): a lone stack, not a guarded fleet member");
            return;
        }
        if (region.claims() == null) {
            throw new CheckFailed(region.self() + " is guarded, but its function could not read the claim registry");
        }
        Block block = Block.ofDatacenter(lease.slot().datacenter());
        RegionClaims.Row claim = region.claimOf(block);
        if (claim == null || !claim.claimant().equals(region.self())) {
            throw new CheckFailed(block + " is " + (claim == null ? "not claimed" : "claimed by " + claim.claimant())
                    + " in the claim registry, not for this stack (" + region.self() + ")");
        }
        for (RegionClaims.Row other : region.claims()) {
            if (other.block() != block && other.claimant().equals(region.self())) {
                throw new CheckFailed("claimed twice: " + region.self() + " holds " + block + " and also " + other.block()
                        + ", which it does not lease from; release that one (docs/multi-region.md)");
            }
        }
        ok("region", region.self() + ": " + block + " claimed in the registry for this stack alone, IDs from "
                + Instant.ofEpochMilli(claim.from()) + "; " + region.claims().size() + " claims in the fleet");
    }

    private void ids(SnowflakeCodec codec) {
        List<SnowflakeId> decoded = new ArrayList<>();
        for (long id : source.ids(API_IDS)) {
            decoded.add(codec.decode(id));
        }
        SnowflakeId first = decoded.get(0);
        long age = clock.millis() - first.unixMillis();
        ok("ids", "GET /ids?count=" + API_IDS + ": " + API_IDS + " IDs from slot " + first.slot() + ", first " + first.value() + " at "
                + first.instant() + " (" + age + " ms ago by this clock)");
    }

    private void giveBack(Lease lease, long lastIssued) {
        try {
            source.release(lease, lastIssued);
            out.println("  (the check's lease on slot " + lease.slot() + " was given back)");
        } catch (RuntimeException e) {
            out.println("  (" + WarningCode.LEASE_RELEASE_FAILED.tag("the check's lease on slot " + lease.slot()
                    + " could not be given back; it runs out by itself: " + e.getMessage()) + ")");
        }
    }

    private void ok(String step, String detail) {
        out.println(String.format("ok   %-9s %s", step, detail));
        passed++;
    }

    private int failed(String step, Exception e, PrintStream err) {
        return failed(step, e.getMessage(), err);
    }

    private int failed(String step, String finding, PrintStream err) {
        out.println(String.format("FAIL %-9s %s", step, finding));
        err.println("check failed at step '" + step + "'");
        return 1;
    }

    /** The lease step's retries, said between the steps' lines. */
    private final class Asides implements ClientLog {
        @Override
        public void info(String message) {
        }

        @Override
        public void warn(String message) {
            out.println("     (" + message + ")");
        }

        @Override
        public void error(String message) {
            out.println("     (" + message + ")");
        }
    }

    /** A step's finding: what was wrong, in the operator's words. */
    static final class CheckFailed extends Exception {
        CheckFailed(String message) {
            super(message);
        }
    }
}
