package dev.snowid.protocol;

import dev.snowid.region.Block;
import dev.snowid.region.Claimant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The slot map's region part ({@code GET /leases}, authenticated): this stack's region, name and
 * guard state, and the claim registry's claims in force, so one view of every region's slot map
 * can check each against the registry. Stack names appear here only, never on a public route.
 *
 * <pre>"region":"eu-west-1","stack":"snowid","guard":"claimed",
 * "claims":[{"block":0,"datacenters":"0-3","region":"eu-west-1","stack":"snowid","from":0,"claimedAt":ms},…]</pre>
 */
public final class RegionClaims {

    /** {@code guard} of a stack without a registry: nothing guards it. */
    public static final String UNGUARDED = "unguarded";
    /** {@code guard} of a stack whose block is claimed for it. */
    public static final String CLAIMED = "claimed";

    /** One claim in force. */
    public static final class Row {
        private final Block block;
        private final Claimant claimant;
        private final long from;
        private final long claimedAt;

        public Row(Block block, Claimant claimant, long from, long claimedAt) {
            this.block = block;
            this.claimant = claimant;
            this.from = from;
            this.claimedAt = claimedAt;
        }

        public Block block() {
            return block;
        }

        public Claimant claimant() {
            return claimant;
        }

        /** Unix ms from which the claim's IDs may carry. */
        public long from() {
            return from;
        }

        public long claimedAt() {
            return claimedAt;
        }
    }

    private final Claimant self;
    private final String guard;
    private final List<Row> claims;

    /** @param claims the claims in force; null without a registry, or when it could not be read */
    public RegionClaims(Claimant self, String guard, List<Row> claims) {
        this.self = self;
        this.guard = guard;
        this.claims = claims == null ? null : Collections.unmodifiableList(new ArrayList<Row>(claims));
    }

    /** This stack's region and name. */
    public Claimant self() {
        return self;
    }

    /** {@code unguarded}, or the claim marker's {@code claimed}, {@code released}, {@code unclaimed} or {@code refused}. */
    public String guard() {
        return guard;
    }

    /** The claims in force; null without a registry, or when it could not be read. */
    public List<Row> claims() {
        return claims;
    }

    /** The claim of {@code block}; null when it is free (or the claims are unknown). */
    public Row claimOf(Block block) {
        if (claims != null) {
            for (Row row : claims) {
                if (row.block() == block) {
                    return row;
                }
            }
        }
        return null;
    }

    /** Adds the fields to a slot map's JSON object, in their wire order. */
    void writeTo(Map<String, Object> json) {
        json.put(LeaseFields.REGION, self.region());
        json.put(LeaseFields.STACK, self.stack());
        json.put(LeaseFields.GUARD, guard);
        if (claims == null) {
            json.put(LeaseFields.CLAIMS, null);
            return;
        }
        List<Map<String, Object>> rows = new ArrayList<Map<String, Object>>();
        for (Row row : claims) {
            Map<String, Object> item = new LinkedHashMap<String, Object>();
            item.put(LeaseFields.BLOCK, row.block().index());
            item.put(LeaseFields.DATACENTERS, row.block().datacenters());
            item.put(LeaseFields.REGION, row.claimant().region());
            item.put(LeaseFields.STACK, row.claimant().stack());
            item.put(LeaseFields.FROM, row.from());
            item.put(LeaseFields.CLAIMED_AT, row.claimedAt());
            rows.add(item);
        }
        json.put(LeaseFields.CLAIMS, rows);
    }

    /** The fields of a slot map's JSON object; null for an answer without them (a server before regions). */
    @SuppressWarnings("unchecked")
    static RegionClaims readFrom(Map<String, Object> json) {
        if (!(json.get(LeaseFields.REGION) instanceof String)) {
            return null;
        }
        Claimant self = Claimant.of((String) json.get(LeaseFields.REGION), text(json, LeaseFields.STACK));
        Object listed = json.get(LeaseFields.CLAIMS);
        List<Row> rows = null;
        if (listed instanceof List) {
            rows = new ArrayList<Row>();
            for (Object item : (List<Object>) listed) {
                if (!(item instanceof Map)) {
                    throw new IllegalArgumentException("'" + LeaseFields.CLAIMS + "' holds " + item + ", not an object");
                }
                Map<String, Object> claim = (Map<String, Object>) item;
                rows.add(new Row(Block.of((int) number(claim, LeaseFields.BLOCK)),
                        Claimant.of(text(claim, LeaseFields.REGION), text(claim, LeaseFields.STACK)), number(claim, LeaseFields.FROM),
                        number(claim, LeaseFields.CLAIMED_AT)));
            }
        } else if (listed != null) {
            throw new IllegalArgumentException("'" + LeaseFields.CLAIMS + "' is neither a list nor null");
        }
        return new RegionClaims(self, text(json, LeaseFields.GUARD), rows);
    }

    private static String text(Map<String, Object> json, String name) {
        Object value = json.get(name);
        if (!(value instanceof String)) {
            throw new IllegalArgumentException("'" + name + "' is missing or not a string");
        }
        return (String) value;
    }

    private static long number(Map<String, Object> json, String name) {
        Object value = json.get(name);
        if (!(value instanceof Long)) {
            throw new IllegalArgumentException("'" + name + "' is missing or not a whole number");
        }
        return (Long) value;
    }
}
