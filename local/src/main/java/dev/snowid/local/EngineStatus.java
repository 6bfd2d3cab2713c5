package dev.snowid.local;

/**
 * Whether the local runner's own engine may be used right now; if not, why and from when on it
 * may be asked again.
 *
 * @param serving     true when requests may reach the lease table
 * @param reason      why not, for the log and the 503's message
 * @param retryAt     unix ms from which a retry makes sense
 * @param quarantined true when rows were lost: nothing is handed out before {@code retryAt}
 */
record EngineStatus(boolean serving, String reason, long retryAt, boolean quarantined) {

    static final EngineStatus SERVING = new EngineStatus(true, "", 0, false);
    private static final long RESTART_RETRY_MILLIS = 1_000;

    /** The engine stopped and is being started again on the same tables. */
    static EngineStatus restarting(String reason, long now) {
        return new EngineStatus(false, reason, now + RESTART_RETRY_MILLIS, false);
    }

    /** The table lost rows: nothing may be handed out until every lease it held has run out. */
    static EngineStatus quarantined(String reason, long until) {
        return new EngineStatus(false, reason, until, true);
    }

    /** Whole seconds for a {@code Retry-After} header, at least 1. */
    long retryAfterSeconds(long now) {
        return Math.max(1, (retryAt - now + 999) / 1000);
    }
}
