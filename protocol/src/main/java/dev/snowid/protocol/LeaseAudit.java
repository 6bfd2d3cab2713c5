package dev.snowid.protocol;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseEvents;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The audit line both sides write for every lease grant, renewal, release and loss: one flat
 * JSON object, so that "who held slot X at time T?" is a query over the function's log and the
 * holders' logs. Fields use the lease's wire names ({@link LeaseFields}) plus {@code audit}
 * ({@code "lease"}), {@code event}, {@code caller} (who asked: a thread, a request) and
 * {@code message} (the same in words), so a structured logger can take the line as it is.
 * Unknown values are left out, never guessed: a release seen by the function knows slot and
 * fence, not the holder (that is on the grant's line, under the same slot and fence).
 */
public final class LeaseAudit {

    /** What happened to the lease. */
    public enum Event {
        GRANTED, RENEWED, RELEASED, LOST;

        String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Event event;
    private final Slot slot;
    private final long fence;
    private LeaseWindow window;
    private String holder;
    private String caller;
    private Long lastIssued;
    private String reason;

    private LeaseAudit(Event event, Slot slot, long fence) {
        this.event = event;
        this.slot = slot;
        this.fence = fence;
    }

    /** A line about {@code lease}: slot, fence, floor and expiry. */
    public static LeaseAudit of(Event event, Lease lease) {
        return new LeaseAudit(event, lease.slot(), lease.fence()).window(lease.window());
    }

    /** A line about the lease {@code fence} on {@code slot}, whose window is not known here. */
    public static LeaseAudit of(Event event, Slot slot, long fence) {
        return new LeaseAudit(event, slot, fence);
    }

    /**
     * The one mapping from a generator's {@link LeaseEvents} to audit lines: each event becomes its
     * line (a release with its last ms and why, a loss with why) and goes to {@code sink}, which
     * adds who holds the lease and who asked, and writes it where its side keeps audit lines.
     */
    public static LeaseEvents events(Consumer<LeaseAudit> sink) {
        return new LeaseEvents() {
            @Override
            public void granted(Lease lease) {
                sink.accept(of(Event.GRANTED, lease));
            }

            @Override
            public void renewed(Lease lease) {
                sink.accept(of(Event.RENEWED, lease));
            }

            @Override
            public void released(Lease lease, long lastIssuedMillis, String why) {
                sink.accept(of(Event.RELEASED, lease).lastIssued(lastIssuedMillis).reason(why));
            }

            @Override
            public void lost(Lease lease, String why) {
                sink.accept(of(Event.LOST, lease).reason(why));
            }
        };
    }

    /** What happened to the lease. */
    public Event event() {
        return event;
    }

    public LeaseAudit window(LeaseWindow window) {
        this.window = window;
        return this;
    }

    /** Who holds the lease, as the grant named it. */
    public LeaseAudit holder(String holder) {
        this.holder = holder;
        return this;
    }

    /** Who asked: the thread of a holder, or the request id and caller of the lease API. */
    public LeaseAudit caller(String caller) {
        this.caller = caller;
        return this;
    }

    /** For a release: unix ms of the last ID issued under the lease (0: none). */
    public LeaseAudit lastIssued(long lastIssuedMillis) {
        this.lastIssued = lastIssuedMillis;
        return this;
    }

    /** Why, where it is not the holder's plain wish (a loss, a lease given back). */
    public LeaseAudit reason(String reason) {
        this.reason = reason;
        return this;
    }

    /** The line: one JSON object, no line break. */
    public String line() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(LeaseFields.MESSAGE, message());
        json.putAll(fields());
        return WireJson.write(json);
    }

    /** Whether this is a loss: worth a warning, where the others are information. */
    public boolean isLoss() {
        return event == Event.LOST;
    }

    /** The audit's fields, without the message: for a log line of another shape that carries them. */
    public Map<String, Object> fields() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("audit", "lease");
        json.put("event", event.wireName());
        json.put(LeaseFields.SLOT, slot.index());
        json.put(LeaseFields.DATACENTER, slot.datacenter());
        json.put(LeaseFields.MACHINE, slot.machine());
        json.put(LeaseFields.FENCE, fence);
        putIfKnown(json, LeaseFields.HOLDER, holder);
        if (window != null) {
            json.put(LeaseFields.FLOOR, window.floor());
            json.put(LeaseFields.EXPIRES_AT, window.expiresAt());
        }
        putIfKnown(json, LeaseFields.LAST_ISSUED, lastIssued);
        putIfKnown(json, "caller", caller);
        putIfKnown(json, "reason", reason);
        return json;
    }

    /** What happened, in words. */
    public String message() {
        StringBuilder text = new StringBuilder("lease ").append(event.wireName()).append(": slot ").append(slot)
                .append(" (").append(slot.index()).append("), fence ").append(fence);
        if (holder != null) {
            text.append(", holder '").append(holder).append('\'');
        }
        if (window != null) {
            text.append(", window ").append(window).append(" (unix ms)");
        }
        if (lastIssued != null) {
            text.append(", last issued ").append(lastIssued);
        }
        if (reason != null) {
            text.append(": ").append(reason);
        }
        return text.toString();
    }

    private static void putIfKnown(Map<String, Object> json, String name, Object value) {
        if (value != null) {
            json.put(name, value);
        }
    }

    @Override
    public String toString() {
        return line();
    }
}
