package dev.snowid.client;

import dev.snowid.IdUnavailableException;

/**
 * The lease API issues IDs with another epoch than this holder is configured with. A lease's
 * window is in unix ms, an ID's timestamp counts from the epoch: a holder with another epoch would
 * put its IDs into other holders' time ranges, so it takes no lease (one it was granted is given
 * back at once). Configure the same epoch as the function ({@code SNOWID_EPOCH_MILLIS}), or none:
 * then the API's is adopted.
 */
public final class EpochMismatchException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    /** A configuration is fixed by a person, not by trying again at once. */
    private static final long RETRY_AFTER_MILLIS = 60_000;

    private final long configuredEpochMillis;
    private final long apiEpochMillis;

    public EpochMismatchException(long configuredEpochMillis, long apiEpochMillis, String where) {
        super("this holder issues IDs with epoch " + configuredEpochMillis + " (unix ms) but the lease API at " + where
                + " issues them with epoch " + apiEpochMillis + ": IDs of two epochs would fall into other holders' time ranges,"
                + " so no lease is used; configure epoch " + apiEpochMillis + " (the function's SNOWID_EPOCH_MILLIS), or none to"
                + " adopt the API's", RETRY_AFTER_MILLIS);
        this.configuredEpochMillis = configuredEpochMillis;
        this.apiEpochMillis = apiEpochMillis;
    }

    public long configuredEpochMillis() {
        return configuredEpochMillis;
    }

    public long apiEpochMillis() {
        return apiEpochMillis;
    }
}
