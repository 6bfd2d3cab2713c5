package dev.snowid.lease;

import dev.snowid.Slot;

/**
 * A slot with an owner as the lease table shows it to operators: who holds it, its fence and
 * window. Deliberately without the owner token: with the token and fence anyone could renew or
 * release the lease, so a view of the pool must never be able to carry it.
 */
public final class HeldSlot {

    private final Slot slot;
    private final String holder;
    private final long fence;
    private final long floor;
    private final long expiresAt;

    public HeldSlot(Slot slot, String holder, long fence, long floor, long expiresAt) {
        if (slot == null) {
            throw new IllegalArgumentException("a held slot needs its slot");
        }
        this.slot = slot;
        this.holder = holder == null ? "" : holder;
        this.fence = fence;
        this.floor = floor;
        this.expiresAt = expiresAt;
    }

    public Slot slot() {
        return slot;
    }

    /** Free text the holder gave when it leased (function environment, host and pid, service name). */
    public String holder() {
        return holder;
    }

    public long fence() {
        return fence;
    }

    /** Unix ms: the first ms the lease may issue in. */
    public long floor() {
        return floor;
    }

    /** Unix ms: the first ms the lease may no longer issue in; before {@code now} the slot is free again. */
    public long expiresAt() {
        return expiresAt;
    }

    /** Whether the lease is still in force at {@code now}: a slot is free once its expiry is strictly before now. */
    public boolean heldAt(long now) {
        return expiresAt >= now;
    }

    @Override
    public String toString() {
        return slot + " held by '" + holder + "' (fence " + fence + ", until " + expiresAt + ")";
    }
}
