package dev.snowid.client.wire;

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
    /** Who asks for a lease, free text (request of {@code POST /leases}). */
    public static final String HOLDER = "holder";
    /** Unix ms of the last ID issued under the lease, 0 if none (request of {@code DELETE /leases/{slot}}). */
    public static final String LAST_ISSUED = "lastIssued";

    /** An error answer: {@code {"error":"<code>","message":"<what was wrong, what is allowed>"}}. */
    public static final String ERROR = "error";
    public static final String MESSAGE = "message";

    private LeaseFields() {
    }
}
