package dev.snowid.client;

import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.NoFreeSlotException;

/**
 * The lease a client starts with. When every slot of the pool is held, it waits (bounded) for
 * one to free instead of failing, asking again when the API's Retry-After says the earliest lease
 * ends: a process supervisor that restarts a holder refused at start-up would otherwise restart it
 * many times a minute, and each start costs the API a Scan of the table.
 */
final class SlotWait {

    private final LeaseSource source;
    private final long waitMillis;
    private final ClientLog log;

    SlotWait(LeaseSource source, long waitMillis, ClientLog log) {
        this.source = source;
        this.waitMillis = waitMillis;
        this.log = log;
    }

    /**
     * @throws NoFreeSlotException when no slot freed within the wait; it says the pool is full and what frees a slot
     */
    Lease acquire() {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        boolean told = false;
        while (true) {
            try {
                return source.acquire();
            } catch (NoFreeSlotException full) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw poolFull(full);
                }
                if (!told) {
                    log.warn("every slot of the lease pool is held; waiting up to " + left + " ms for one to free (a slot frees"
                            + " when its holder stops, at once, or when a stopped holder's lease runs out): " + full.getMessage());
                    told = true;
                }
                try {
                    Thread.sleep(Math.min(full.retryAfterMillis(), left)); // the API says when the earliest lease ends
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw poolFull(full);
                }
            }
        }
    }

    private NoFreeSlotException poolFull(NoFreeSlotException full) {
        return new NoFreeSlotException("the lease pool is full: every slot is held by another holder"
                + (waitMillis > 0 ? ", and none freed within the " + waitMillis + " ms waited" : "")
                + ". A slot frees when its holder stops (released at once) or, for a holder that died, when its lease runs out"
                + " (the earliest in about " + full.retryAfterMillis() + " ms). Run fewer holders at once, give the pool more"
                + " slots (the function's SNOWID_DATACENTERS x SNOWID_MACHINES), or let holders wait for a slot at start-up."
                + " The lease API said: " + full.getMessage(), full.retryAfterMillis());
    }
}
