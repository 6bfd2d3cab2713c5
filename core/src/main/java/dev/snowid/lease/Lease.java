package dev.snowid.lease;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;

/**
 * A confirmed hold on a slot: who holds it (the owner token), which acquisition this is (the
 * fence, bumped on every acquisition) and the window in which it may issue IDs.
 */
public final class Lease {

    private final Slot slot;
    private final String owner;
    private final long fence;
    private final LeaseWindow window;

    public Lease(Slot slot, String owner, long fence, LeaseWindow window) {
        if (slot == null || owner == null || owner.isEmpty() || window == null) {
            throw new IllegalArgumentException("a lease needs a slot, an owner token and a window");
        }
        this.slot = slot;
        this.owner = owner;
        this.fence = fence;
        this.window = window;
    }

    public Slot slot() {
        return slot;
    }

    /** The holder's random token; whoever shows it (with the fence) may renew or release. */
    public String owner() {
        return owner;
    }

    public long fence() {
        return fence;
    }

    public LeaseWindow window() {
        return window;
    }

    @Override
    public String toString() {
        return "lease on slot " + slot + " (fence " + fence + ") " + window;
    }
}
