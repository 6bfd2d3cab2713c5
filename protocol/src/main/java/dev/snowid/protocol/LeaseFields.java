package dev.snowid.protocol;


/**
 * The JSON field names of the lease API, on both sides of the wire: the function writes its
 * answers and reads requests with these, the client the other way round. Rename one here and
 * both sides change together; the contract test ({@code LeaseApiContract}) holds them to it.
 */
public final class LeaseFields {

    /** Slot index, {@code datacenter * 32 + machine}. */
    public static final String SLOT = "slot";
    public static final String DATACENTER = "datacenter";
    public static final String MACHINE = "machine";
    /** The holder's random token (32 lower-case hex digits); with the fence it proves holding. */
    public static final String OWNER = "owner";
    /** Bumped on every acquisition of the slot. */
    public static final String FENCE = "fence";
    /** Unix ms: the first ms this lease may issue IDs in (the previous holder's expiry). */
    public static final String FLOOR = "floor";
    /** Unix ms: the first ms this lease may no longer issue IDs in. */
    public static final String EXPIRES_AT = "expiresAt";
    /**
     * Unix ms: the epoch of the IDs issued under the lease, the one parameter of the ID layout
     * that can differ between deployments (the bit widths are fixed). Every holder of the pool
     * must issue with it, or the lease windows no longer keep two holders' IDs apart.
     */
    public static final String EPOCH = "epoch";
    /** Who asks for a lease, free text (request of {@code POST /leases}). */
    public static final String HOLDER = "holder";
    /**
     * The id of one acquisition (request of {@code POST /leases}): 32 lower-case hex digits, drawn
     * at random for it and sent again on each of its retries. A retry whose first attempt was
     * granted gets that same lease (slot, owner, fence, window) back, not a second slot.
     */
    public static final String REQUEST_ID = "requestId";
    /** Unix ms of the last ID issued under the lease, 0 if none (request of {@code DELETE /leases/{slot}}). */
    public static final String LAST_ISSUED = "lastIssued";

    /** The slot map ({@code GET /leases}): the function's time (unix ms) the map was read at. */
    public static final String NOW = "now";
    /** The slot map: the lease duration the function grants, ms. */
    public static final String LEASE_MILLIS = "leaseMillis";
    /** The slot map: one summary per part of the pool. */
    public static final String PARTS = "parts";
    /** A part's name ({@code function}, {@code agents}, or {@code shared} when the pool is not split); also on each held slot. */
    public static final String PART = "part";
    /** A part: how many slots it has. */
    public static final String SIZE = "size";
    /** A part: how many of its slots are held now. */
    public static final String HELD = "held";
    /** A part: how many of its slots are free now. */
    public static final String FREE = "free";
    /** A part: unix ms of the earliest expiry among its held slots; null when none is held. */
    public static final String EARLIEST_EXPIRY = "earliestExpiry";
    /** A part: its slot indexes as ranges, e.g. {@code "0-95"} or {@code "0-15,32-47"}. */
    public static final String SLOTS = "slots";
    /** The slot map: every held slot (slot, node, part, holder, fence, floor, expiresAt; never the owner). */
    public static final String LEASES = "leases";
    /** A held slot's {@code datacenter:machine}, as an agent's {@code snowid.node} is written. */
    public static final String NODE = "node";

    /** The slot map, {@code /health} and a decoded ID: a region's name ({@code eu-west-1}; {@code local} for a runner). */
    public static final String REGION = "region";
    /** The slot map: this stack's name in its claims; a claim: its stack. Never on a public route. */
    public static final String STACK = "stack";
    /**
     * {@code /health}: {@code unguarded} (no registry), {@code unchecked}, {@code claimed} or {@code refused}, as this
     * environment last found; the slot map: {@code unguarded}, or as the lease table's claim marker says it
     * ({@code claimed}, {@code released}, {@code unclaimed}, {@code refused}).
     */
    public static final String GUARD = "guard";
    /** The slot map: the registry's claims in force, one per claimed block; null without a registry or when it could not be read. */
    public static final String CLAIMS = "claims";
    /** A claim: its block, 0 to 7. */
    public static final String BLOCK = "block";
    /** A claim: its block's datacenters, e.g. {@code "4-7"}. */
    public static final String DATACENTERS = "datacenters";
    /** A claim: unix ms from which its IDs may carry (the previous claims' highest lease expiry). */
    public static final String FROM = "from";
    /** A claim: unix ms it was made. */
    public static final String CLAIMED_AT = "claimedAt";

    /** An error answer: {@code {"error":"<code>","message":"<what was wrong, what is allowed>"}}. */
    public static final String ERROR = "error";
    public static final String MESSAGE = "message";

    private LeaseFields() {
    }
}
