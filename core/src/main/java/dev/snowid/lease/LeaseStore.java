package dev.snowid.lease;

import dev.snowid.Slot;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The lease table. Every method is one write (conditional, but for a request id's claim, which
 * changes nothing once made) or one read of the store, and returns only what the store confirmed. Implementations retry throttling and 5xx with
 * jittered backoff and give up with {@link LeaseStoreUnavailableException}.
 */
public interface LeaseStore {

    /**
     * Takes {@code slot} if it has no item or its lease expired before {@code now}, in one
     * conditional write that also bumps the fence and copies the old expiry into the floor.
     *
     * @return the new lease, or empty when someone else holds the slot
     */
    default Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt) {
        return tryAcquire(slot, owner, holder, now, expiresAt, null);
    }

    /**
     * As {@link #tryAcquire(Slot, String, String, long, long)}, recording {@code requestId} (an
     * {@link AcquisitionRequest} id; null: none) on the slot's item in the same write. The record
     * lasts until the lease is first renewed or released, or another acquisition takes the slot:
     * while it lasts, the item is exactly as granted ({@link #grantedFor}).
     */
    Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt, String requestId);

    /**
     * As {@link #tryAcquire(Slot, String, String, long, long)}, but takes {@code slot} only if no
     * holder has it, whatever {@code now} says: it has no item, or it was released (it has no
     * owner) and its expiry is before {@code now}. A process writes this way before it has seen
     * the store's clock, so a clock far ahead cannot take over a live lease.
     *
     * @return the new lease, or empty when the slot is held, or was and has not been released
     */
    Optional<Lease> tryAcquireUnheld(Slot slot, String owner, String holder, long now, long expiresAt);

    /**
     * Claims {@code requestId} for {@code holder}, with {@code owner} as the claiming attempt's
     * owner token, unless the id was claimed before; one write, on an item of the id's own (never
     * a slot's). Returns the claim as stored: this one (its owner is {@code owner}), or the
     * earlier one, whoever made it ({@link RequestClaim#isFor} tells).
     *
     * @param until unix ms the claim is needed until at least (the end of the lease it is for):
     *              the store's clean-up may delete it some time after, never before
     */
    RequestClaim claim(String requestId, String holder, String owner, long until);

    /**
     * Records {@code lease} as the grant of the claim, if the claim is still exactly {@code read}
     * (its owner token, and its recorded slot or none): one conditional write. The claim then
     * has the lease's owner token and slot.
     *
     * @return false, writing nothing, when the claim changed since it was read (another attempt
     *         with the id recorded its grant first) or is gone
     */
    boolean recordGrant(RequestClaim read, Lease lease);

    /**
     * The grant {@code claim} records, read from its slot's item: exactly as granted (slot, owner
     * token, fence, window) while the item still carries the claim's owner token and request id
     * (see {@link #tryAcquire(Slot, String, String, long, long, String)}) and its expiry is not
     * before {@code now}. One keyed read. Empty otherwise, and for a claim that records none.
     */
    Optional<Lease> grantedFor(RequestClaim claim, long now);

    /**
     * Extends the lease, conditional on owner and fence.
     *
     * @throws LeaseLostException when the slot has another owner or fence, or no item
     */
    Lease renew(Slot slot, String owner, long fence, long newExpiresAt);

    /**
     * Frees the slot at once, conditional on owner and fence: the expiry becomes the last
     * issued ms + 1 (never below the floor), and the owner is removed. Releasing again with the
     * same owner and fence, while nobody took the slot since, changes nothing and succeeds: a
     * retried release whose first answer was lost is not a lost lease.
     *
     * @throws LeaseLostException when the slot has another owner or fence, or no item
     */
    void release(Slot slot, String owner, long fence, long lastIssuedMillis);

    /** One Scan: the expiry (unix ms) of every slot that has an owner, whether or not it has passed. */
    Map<Slot, Long> ownedExpiries();

    /**
     * One Scan: every slot that has an owner, expired or not, with holder, fence and window; never
     * the owner token (the lease API's slot map shows this to operators).
     */
    List<HeldSlot> heldSlots();

    /**
     * Local clock minus the store's clock (its {@code Date} header, 1 s resolution) as seen on
     * the latest answer; empty before the first.
     */
    OptionalLong clockSkewMillis();

    /**
     * Forgets the skew measured so far. After a SnapStart restore the local clock is another
     * machine's, so a skew measured before the snapshot says nothing about it; until the next
     * answer the skew is unknown again, and acquisition checks it before any write.
     */
    void forgetClockSkew();
}
