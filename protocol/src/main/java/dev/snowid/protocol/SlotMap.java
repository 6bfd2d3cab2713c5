package dev.snowid.protocol;

import dev.snowid.Slot;
import dev.snowid.lease.HeldSlot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code GET /leases}: the pool as operators see it. Per part of the pool (the
 * function's environments, the agents; or one shared part) its size, how many slots are held and
 * free, and the earliest expiry; per held slot its node, holder, fence and window.
 *
 * <pre>{"now":ms,"leaseMillis":ms,
 *  "parts":[{"part":"function","size":96,"held":3,"free":93,"earliestExpiry":ms|null,"slots":"0-95"},…],
 *  "leases":[{"slot":96,"node":"3:0","part":"agents","holder":"…","fence":4,"floor":ms,"expiresAt":ms},…]}</pre>
 *
 * <p>It is built from {@link HeldSlot}s, which have no owner token, so no map can carry one. A
 * slot whose lease ran out counts as free and is not listed.
 */
public final class SlotMap {

    /** One part of the pool and how full it is. */
    public static final class Part {
        private final String name;
        private final List<Slot> slots;
        private final int held;
        private final Long earliestExpiry;

        public Part(String name, List<Slot> slots, int held, Long earliestExpiry) {
            this.name = name;
            this.slots = Collections.unmodifiableList(new ArrayList<>(slots));
            this.held = held;
            this.earliestExpiry = earliestExpiry;
        }

        public String name() {
            return name;
        }

        /** The part's slots in table order. */
        public List<Slot> slots() {
            return slots;
        }

        public int size() {
            return slots.size();
        }

        public int held() {
            return held;
        }

        public int free() {
            return slots.size() - held;
        }

        /** Unix ms of the earliest expiry among the held slots; null when none is held. */
        public Long earliestExpiry() {
            return earliestExpiry;
        }
    }

    /** A held slot and the part it belongs to. */
    public static final class Entry {
        private final HeldSlot lease;
        private final String part;

        public Entry(HeldSlot lease, String part) {
            this.lease = lease;
            this.part = part;
        }

        public HeldSlot lease() {
            return lease;
        }

        public String part() {
            return part;
        }
    }

    private final long now;
    private final long leaseMillis;
    private final List<Part> parts;
    private final List<Entry> leases;
    private final RegionClaims region;

    private SlotMap(long now, long leaseMillis, List<Part> parts, List<Entry> leases, RegionClaims region) {
        this.now = now;
        this.leaseMillis = leaseMillis;
        this.parts = Collections.unmodifiableList(new ArrayList<>(parts));
        this.leases = Collections.unmodifiableList(new ArrayList<>(leases));
        this.region = region;
    }

    /** The same map with its region part: this stack's region and guard, and the registry's claims. */
    public SlotMap withRegion(RegionClaims region) {
        return new SlotMap(now, leaseMillis, parts, leases, region);
    }

    /** The region part; null from a server that has none. */
    public RegionClaims region() {
        return region;
    }

    /**
     * The map of the given parts at {@code now}: a slot is listed when its lease is in force and it
     * lies in one of the parts; the rows of other slots (expired, or outside the pool) are left out.
     *
     * @param parts part name → its slots in table order; parts share no slot
     */
    public static SlotMap of(long now, long leaseMillis, Map<String, List<Slot>> parts, List<HeldSlot> rows) {
        List<Part> summaries = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        for (Map.Entry<String, List<Slot>> part : parts.entrySet()) {
            boolean[] inPart = new boolean[Slot.COUNT];
            for (Slot slot : part.getValue()) {
                inPart[slot.index()] = true;
            }
            int held = 0;
            Long earliest = null;
            for (HeldSlot row : rows) {
                if (inPart[row.slot().index()] && row.heldAt(now)) {
                    held++;
                    earliest = earliest == null ? row.expiresAt() : Math.min(earliest, row.expiresAt());
                    entries.add(new Entry(row, part.getKey()));
                }
            }
            summaries.add(new Part(part.getKey(), part.getValue(), held, earliest));
        }
        Collections.sort(entries, (a, b) -> a.lease().slot().compareTo(b.lease().slot()));
        return new SlotMap(now, leaseMillis, summaries, entries, null);
    }

    public long now() {
        return now;
    }

    public long leaseMillis() {
        return leaseMillis;
    }

    public List<Part> parts() {
        return parts;
    }

    /** The held slots, in slot order. */
    public List<Entry> leases() {
        return leases;
    }

    /** The map as {@code GET /leases} answers it. */
    public String toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(LeaseFields.NOW, now);
        json.put(LeaseFields.LEASE_MILLIS, leaseMillis);
        List<Map<String, Object>> partList = new ArrayList<>();
        for (Part part : parts) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put(LeaseFields.PART, part.name());
            item.put(LeaseFields.SIZE, part.size());
            item.put(LeaseFields.HELD, part.held());
            item.put(LeaseFields.FREE, part.free());
            item.put(LeaseFields.EARLIEST_EXPIRY, part.earliestExpiry());
            item.put(LeaseFields.SLOTS, SlotRanges.write(part.slots()));
            partList.add(item);
        }
        json.put(LeaseFields.PARTS, partList);
        List<Map<String, Object>> leaseList = new ArrayList<>();
        for (Entry entry : leases) {
            HeldSlot lease = entry.lease();
            Map<String, Object> item = new LinkedHashMap<>();
            item.put(LeaseFields.SLOT, lease.slot().index());
            item.put(LeaseFields.NODE, lease.slot().toString());
            item.put(LeaseFields.PART, entry.part());
            item.put(LeaseFields.HOLDER, lease.holder());
            item.put(LeaseFields.FENCE, lease.fence());
            item.put(LeaseFields.FLOOR, lease.floor());
            item.put(LeaseFields.EXPIRES_AT, lease.expiresAt());
            leaseList.add(item);
        }
        json.put(LeaseFields.LEASES, leaseList);
        if (region != null) {
            region.writeTo(json);
        }
        return WireJson.write(json);
    }

    /**
     * Reads a {@code GET /leases} answer.
     *
     * @throws IllegalArgumentException saying what is missing or malformed
     */
    public static SlotMap read(String body) {
        Map<String, Object> json = WireJson.parseWithLists(body);
        List<Part> parts = new ArrayList<>();
        for (Map<String, Object> item : list(json, LeaseFields.PARTS)) {
            Object earliest = item.get(LeaseFields.EARLIEST_EXPIRY);
            if (earliest != null && !(earliest instanceof Long)) {
                throw new IllegalArgumentException("'" + LeaseFields.EARLIEST_EXPIRY + "' is neither a whole number nor null");
            }
            parts.add(new Part(text(item, LeaseFields.PART), SlotRanges.read(text(item, LeaseFields.SLOTS)),
                    (int) number(item, LeaseFields.HELD), (Long) earliest));
        }
        List<Entry> leases = new ArrayList<>();
        for (Map<String, Object> item : list(json, LeaseFields.LEASES)) {
            long index = number(item, LeaseFields.SLOT);
            if (index < 0 || index >= Slot.COUNT) {
                throw new IllegalArgumentException("'" + LeaseFields.SLOT + "' " + index + " is not a slot");
            }
            leases.add(new Entry(new HeldSlot(Slot.ofIndex((int) index), text(item, LeaseFields.HOLDER), number(item, LeaseFields.FENCE),
                    number(item, LeaseFields.FLOOR), number(item, LeaseFields.EXPIRES_AT)), text(item, LeaseFields.PART)));
        }
        return new SlotMap(number(json, LeaseFields.NOW), number(json, LeaseFields.LEASE_MILLIS), parts, leases,
                RegionClaims.readFrom(json));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> json, String name) {
        Object value = json.get(name);
        if (!(value instanceof List)) {
            throw new IllegalArgumentException("'" + name + "' is missing or not a list");
        }
        for (Object item : (List<?>) value) {
            if (!(item instanceof Map)) {
                throw new IllegalArgumentException("'" + name + "' holds " + item + ", not an object");
            }
        }
        return (List<Map<String, Object>>) value;
    }

    private static long number(Map<String, Object> json, String name) {
        Object value = json.get(name);
        if (!(value instanceof Long)) {
            throw new IllegalArgumentException("'" + name + "' is missing or not a whole number");
        }
        return (Long) value;
    }

    private static String text(Map<String, Object> json, String name) {
        Object value = json.get(name);
        if (!(value instanceof String)) {
            throw new IllegalArgumentException("'" + name + "' is missing or not a string");
        }
        return (String) value;
    }
}
