package dev.snowid.lease;

import dev.snowid.Slot;
import java.util.Optional;

/**
 * What the lease table holds for one acquisition id ({@link AcquisitionRequest}), on an item of
 * its own: the holder the id is bound to, the owner token of the attempt that holds the claim,
 * and, once that attempt's grant is recorded, the slot it was granted.
 *
 * <p>The rules ({@code docs/protocol.md}, "Request ids"):
 * <ul>
 * <li>The first acquisition with an id writes the claim ({@link LeaseStore#claim}); the id is
 *     then bound to its holder for good, and any other holder sending it is refused.</li>
 * <li>A grant is answered only once the claim records it ({@link LeaseStore#recordGrant}, a write
 *     conditional on the claim being exactly as read). So per claim state at most one grant is
 *     answered, and a lease is answered again only while the claim records it and its slot is
 *     still exactly as granted ({@link LeaseStore#grantedFor}).</li>
 * <li>A retry by the same holder that finds no live grant recorded acquires anew and records its
 *     grant in the earlier attempt's place; the earlier attempt, if it is still running, then
 *     fails to record, hands its slot back unanswered and is refused
 *     ({@link AcquisitionSupersededException}).</li>
 * </ul>
 */
public final class RequestClaim {

    private final String requestId;
    private final String holder;
    private final String owner;
    private final Slot slot;

    /**
     * @param slot the slot of the recorded grant; null while none is recorded
     */
    public RequestClaim(String requestId, String holder, String owner, Slot slot) {
        if (requestId == null || holder == null || owner == null) {
            throw new IllegalArgumentException("a request claim needs an id, a holder and an owner token");
        }
        this.requestId = requestId;
        this.holder = holder;
        this.owner = owner;
        this.slot = slot;
    }

    /** The acquisition id, as stored (a store whose keys hold fewer bits than an id compares it). */
    public String requestId() {
        return requestId;
    }

    /** Who the id is bound to: the holder of the acquisition that sent it first, exactly as it was given. */
    public String holder() {
        return holder;
    }

    /** The owner token of the attempt that holds the claim: its grant's, once recorded. */
    public String owner() {
        return owner;
    }

    /** The slot of the recorded grant; empty while none is recorded. */
    public Optional<Slot> slot() {
        return Optional.ofNullable(slot);
    }

    /** Whether this is the claim of {@code requestId} bound to {@code holder}: else the id is another holder's. */
    public boolean isFor(String requestId, String holder) {
        return this.requestId.equals(requestId) && this.holder.equals(holder);
    }

    @Override
    public String toString() {
        // Neither the id nor the owner token: together with the holder, they are the recorded lease.
        return "claim of an acquisition id" + (slot == null ? ", no grant recorded" : ", grant on slot " + slot + " recorded");
    }
}
