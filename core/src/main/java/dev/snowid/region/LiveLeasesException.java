package dev.snowid.region;

import dev.snowid.lease.HeldSlot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A release refused: leases of the block are in force in the region's table. The message lists them. */
public final class LiveLeasesException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private static final int LISTED = 5;

    private final transient List<HeldSlot> live;

    public LiveLeasesException(Block block, List<HeldSlot> live, long now) {
        super(message(block, live, now));
        this.live = Collections.unmodifiableList(new ArrayList<HeldSlot>(live));
    }

    /** The leases in force. */
    public List<HeldSlot> live() {
        return live;
    }

    private static String message(Block block, List<HeldSlot> live, long now) {
        StringBuilder text = new StringBuilder(block.toString()).append(" still has ").append(live.size())
                .append(live.size() == 1 ? " lease" : " leases").append(" in force in this region's table");
        long last = 0;
        for (int i = 0; i < live.size(); i++) {
            HeldSlot slot = live.get(i);
            last = Math.max(last, slot.expiresAt());
            if (i < LISTED) {
                text.append(i == 0 ? ": " : "; ").append("slot ").append(slot.slot()).append(" held by '").append(slot.holder())
                        .append("' for ").append(Math.max(0, slot.expiresAt() - now)).append(" ms more");
            }
        }
        if (live.size() > LISTED) {
            text.append("; and ").append(live.size() - LISTED).append(" more");
        }
        return text.append(". Stop the region's functions and agents (ReservedConcurrency 0, or delete the stack), wait until"
                + " the last lease ran out (in ").append(Math.max(0, last - now)).append(" ms), and release again").toString();
    }
}
