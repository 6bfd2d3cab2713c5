package dev.snowid.protocol;

import dev.snowid.Slot;

/**
 * The lease routes: their rows of the route table ({@link ApiRoute}: method and path), the status
 * of success, and what every other answer means to the caller ({@link Failure}). Both sides route
 * by these; the client turns failures into the
 * lease exceptions a {@code dev.snowid.lease.LeasedGenerator} understands (the protocol:
 * {@code docs/protocol.md}).
 */
public enum LeaseRoute {

    /** {@code POST /leases}, body {@code {"holder":"…","requestId":"…"}} (both optional) → 201 and a lease. */
    ACQUIRE(ApiRoute.ACQUIRE, 201),
    /** {@code PUT /leases/{slot}}, body {@code {"owner":"…","fence":n}} → 200 and the lease as stored. */
    RENEW(ApiRoute.RENEW, 200),
    /** {@code DELETE /leases/{slot}}, body {@code {"owner":"…","fence":n,"lastIssued":ms}} → 204. */
    RELEASE(ApiRoute.RELEASE, 204),
    /**
     * {@code GET /leases} → 200 and the slot map ({@link SlotMap}): every held slot with holder,
     * fence and window, never an owner token, and a summary per part of the pool. For operators.
     */
    SLOT_MAP(ApiRoute.SLOT_MAP, 200);

    /** The collection all lease routes live under. */
    public static final String LEASES = "/leases";

    private final ApiRoute row;
    private final int successStatus;

    LeaseRoute(ApiRoute row, int successStatus) {
        this.row = row;
        this.successStatus = successStatus;
    }

    /** This route's row of the route table. */
    public ApiRoute row() {
        return row;
    }

    public String method() {
        return row.method();
    }

    public int successStatus() {
        return successStatus;
    }

    /** The path of this route: {@code /leases} to acquire or list, {@code /leases/{slot index}} for a held slot. */
    public String path(Slot slot) {
        return row.path(slot == null ? null : slot.index());
    }

    /** What an answer other than the route's success means to the caller; each holder turns it into its own error. */
    public enum Failure {
        /** Every slot of the pool is held: wait for one, or give up (acquire only). */
        NO_FREE_SLOT,
        /** The lease is no longer the caller's: stop issuing from it (renew and release). */
        LEASE_LOST,
        /** The credentials were refused (401, 403): a misconfiguration for an operator to fix, not an outage. */
        CREDENTIALS_REFUSED,
        /** The request id was first sent by another caller (acquire only): nothing was granted; a new acquisition draws a fresh id. */
        REQUEST_ID_CONFLICT,
        /** Anything else: unavailable, try again later; never an assumed success. */
        UNAVAILABLE
    }

    /**
     * What an answer other than {@link #successStatus()} means: no free slot or a request id
     * another caller sent first (acquire), the lease is no longer ours (renew and release: 409, or 404 for a slot the function does not
     * know), the credentials refused (401, 403), anything else "unavailable, try again later".
     *
     * @param status the HTTP status
     * @param error the answer's error code; null when the body had none (a proxy's page)
     */
    public Failure failureOf(int status, ErrorCode error) {
        if (this == ACQUIRE && error == ErrorCode.NO_FREE_SLOT) {
            return Failure.NO_FREE_SLOT;
        }
        if (this == ACQUIRE && error == ErrorCode.REQUEST_ID_CONFLICT) {
            return Failure.REQUEST_ID_CONFLICT;
        }
        if ((this == RENEW || this == RELEASE) && (status == 409 || status == 404)) {
            return Failure.LEASE_LOST;
        }
        if (status == 401 || status == 403) {
            return Failure.CREDENTIALS_REFUSED;
        }
        return Failure.UNAVAILABLE;
    }

    /**
     * Whether an error answer leaves open what became of the request, so that a caller asks again
     * with the same request id (what the id is for): a 5xx that names no code (a gateway's or
     * proxy's page, such as API Gateway's 502 or 504), or says that the function or its store
     * failed ({@code store_unavailable}, {@code unavailable}, {@code internal}), or that the same
     * acquisition, sent earlier, won the race for the id ({@code acquisition_superseded}: asked again,
     * the id answers with that acquisition's lease). Every other answer
     * settles it: refused credentials (401, 403), a refused request (400, 404, 409), a full pool, a
     * clock too far off ({@code clock_skew}, {@code clock_behind}), any other code the API names,
     * known to this version or not. No answer at all (a reset, a timeout, a refused connection)
     * leaves it open too: the caller's business.
     */
    public static boolean leavesOpen(int status, ErrorAnswer answer) {
        if (status < 500) {
            return false;
        }
        ErrorCode code = answer.code();
        return !answer.namesCode() || code == ErrorCode.STORE_UNAVAILABLE || code == ErrorCode.UNAVAILABLE
                || code == ErrorCode.INTERNAL || code == ErrorCode.ACQUISITION_SUPERSEDED;
    }

    @Override
    public String toString() {
        return row.toString();
    }
}
