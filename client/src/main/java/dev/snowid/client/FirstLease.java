package dev.snowid.client;

import dev.snowid.MonotonicClock;
import dev.snowid.internal.WarningCode;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.protocol.ErrorCode;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;

/**
 * The lease a front end starts with: {@link SnowidClient.Builder#build()}, and the agent CLI's
 * deployment check. Two things that pass are waited out, each within its own bound:
 * <ul>
 *   <li>an attempt the lease API did not settle ({@link UnsettledRequestException}: no answer, an
 *       unreadable one, a 5xx that says nothing of the request) is asked again, with the same
 *       request id, until the start-up deadline: a slot granted to a lost answer is answered again
 *       rather than stranded while a second one is taken;</li>
 *   <li>a full pool is waited out up to the slot wait, asking again when the API's Retry-After
 *       says the earliest lease ends: a supervisor that restarts a refused holder would otherwise
 *       restart it many times a minute, each start a Scan of the table.</li>
 * </ul>
 * Every other answer fails at once: refused credentials, a refused request, a clock too far
 * off, an epoch mismatch. Not API: it may change in any release.
 */
public final class FirstLease {

    private final LeaseSource source;
    private final long deadlineMillis;
    private final long slotWaitMillis;
    private final ClientLog log;
    private final MonotonicClock monotonic;

    private FirstLease(LeaseSource source, long deadlineMillis, long slotWaitMillis, ClientLog log, MonotonicClock monotonic) {
        this.source = source;
        this.deadlineMillis = deadlineMillis;
        this.slotWaitMillis = slotWaitMillis;
        this.log = log;
        this.monotonic = monotonic;
    }

    /**
     * @param deadlineMillis how long attempts the API did not settle are asked again ({@link ClientSettings#STARTUP_DEADLINE})
     * @param slotWaitMillis how long a full pool is waited out
     * @throws NoFreeSlotException no slot freed within the slot wait; it says what frees one
     * @throws dev.snowid.lease.LeaseStoreUnavailableException no settled answer within the deadline, or
     *         a failure the API settled; the first says how often it asked
     */
    public static Lease acquire(LeaseSource source, long deadlineMillis, long slotWaitMillis, ClientLog log) {
        return acquire(source, deadlineMillis, slotWaitMillis, log, MonotonicClock.SYSTEM);
    }

    /** As above, the deadline and the pauses on {@code monotonic} (a simulator's virtual time). */
    static Lease acquire(LeaseSource source, long deadlineMillis, long slotWaitMillis, ClientLog log, MonotonicClock monotonic) {
        return new FirstLease(source, deadlineMillis, slotWaitMillis, log, monotonic).acquire();
    }

    private Lease acquire() {
        long startedAt = monotonic.nanos();
        int attempts = 0;
        boolean toldFull = false;
        boolean toldUnsettled = false;
        while (true) {
            attempts++;
            try {
                return source.acquire();
            } catch (NoFreeSlotException full) {
                long left = slotWaitMillis - elapsedMillis(startedAt);
                if (left <= 0) {
                    throw poolFull(full);
                }
                if (!toldFull) {
                    log.warn(ErrorCode.NO_FREE_SLOT.tag("every slot of the lease pool is held; waiting up to " + left + " ms for one to free"
                            + " (a slot frees when its holder stops, at once, or when a stopped holder's lease runs out): " + full.getMessage()));
                    toldFull = true;
                }
                if (!pause(Math.min(full.retryAfterMillis(), left))) { // the API says when the earliest lease ends
                    throw poolFull(full);
                }
            } catch (UnsettledRequestException unsettled) {
                long left = deadlineMillis - elapsedMillis(startedAt);
                if (left <= 0) {
                    throw gaveUp(unsettled, attempts);
                }
                if (!toldUnsettled) {
                    log.warn(unreachable(unsettled)
                            ? WarningCode.LEASE_API_UNREACHABLE.tag("could not connect to the lease API; asking again for up to " + left
                                    + " ms: " + unsettled.getMessage())
                            : WarningCode.ACQUISITION_UNSETTLED.tag("the lease API did not settle the acquisition; asking again with the"
                                    + " same request id for up to " + left + " ms: " + unsettled.getMessage()));
                    toldUnsettled = true;
                }
                if (!pause(Math.min(unsettled.retryAfterMillis(), left))) {
                    throw gaveUp(unsettled, attempts);
                }
            }
        }
    }

    private long elapsedMillis(long startedAt) {
        return (monotonic.nanos() - startedAt) / 1_000_000;
    }

    /** False when interrupted: the caller gives up at once, with the interrupt kept. */
    private boolean pause(long millis) {
        try {
            monotonic.sleep(Math.max(1, millis));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private UnsettledRequestException gaveUp(UnsettledRequestException last, int attempts) {
        String asked = attempts == 1 ? "" : " (asked " + attempts + " times with one request id within the start-up deadline of "
                + deadlineMillis + " ms)";
        String message = unreachable(last)
                ? WarningCode.LEASE_API_UNREACHABLE.tag("could not connect to the lease API: " + last.getMessage() + asked
                        + ". Check the lease URL (the scheme, host and port of the local runner, or the stack's LeaseUrl output) and that"
                        + " the runner (local/scripts/run-local.sh) or the stack is up and reachable from here")
                : last.getMessage() + asked;
        return new UnsettledRequestException(message, last.retryAfterMillis(), last.getCause() != null ? last.getCause() : last);
    }

    /** Whether no connection could be made at all (refused, no such host, no route): a wrong URL or nothing running there. */
    static boolean unreachable(UnsettledRequestException failure) {
        Throwable cause = failure.getCause();
        return cause instanceof ConnectException || cause instanceof UnknownHostException || cause instanceof NoRouteToHostException;
    }

    private NoFreeSlotException poolFull(NoFreeSlotException full) {
        return new NoFreeSlotException("the lease pool is full: every slot is held by another holder"
                + (slotWaitMillis > 0 ? ", and none freed within the " + slotWaitMillis + " ms waited" : "")
                + ". A slot frees when its holder stops (released at once) or, for a holder that died, when its lease runs out"
                + " (the earliest in about " + full.retryAfterMillis() + " ms). Run fewer holders at once, give the pool more"
                + " slots (the function's SNOWID_DATACENTERS x SNOWID_MACHINES), or let holders wait for a slot at start-up."
                + " The lease API said: " + full.getMessage(), full.retryAfterMillis());
    }
}
