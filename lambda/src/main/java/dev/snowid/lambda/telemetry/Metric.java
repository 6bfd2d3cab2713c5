package dev.snowid.lambda.telemetry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every metric the function writes (CloudWatch embedded metric format), with its unit and
 * dimensions. The template's alarms and dashboard are checked against this list.
 */
public enum Metric {

    /** Requests answered, per route; none for {@code /health}. */
    REQUESTS("Requests", Unit.COUNT, Dimension.ROUTE),
    /** Time in the handler, event in to response out, per route. */
    LATENCY("Latency", Unit.MILLISECONDS, Dimension.ROUTE),
    /** Error answers, per error code (4xx and 5xx). */
    ERRORS("Errors", Unit.COUNT, Dimension.ERROR_CODE),
    /** Answers with a 5xx status: our side's, not the client's mistakes. */
    SERVER_ERRORS("ServerErrors", Unit.COUNT),
    /** IDs handed out by {@code /ids}. */
    IDS_ISSUED("IdsIssued", Unit.COUNT),
    /** The first request of an execution environment, after init or after a SnapStart restore (Powertools' name). */
    COLD_START("ColdStart", Unit.COUNT),
    LEASE_ACQUISITIONS("LeaseAcquisitions", Unit.COUNT, Dimension.HOLDER),
    LEASE_RENEWALS("LeaseRenewals", Unit.COUNT, Dimension.HOLDER),
    /** A lease found to be someone else's: renewal or release refused on owner token and fence. */
    LEASE_LOSSES("LeaseLosses", Unit.COUNT, Dimension.HOLDER),
    /** Lease-table calls (conditional writes and Scans) one acquisition took. */
    ACQUISITION_ROUND_TRIPS("AcquisitionRoundTrips", Unit.COUNT, Dimension.HOLDER),
    /** Held slots in per cent of the part's size, as the Scan of an acquisition saw them. */
    POOL_OCCUPANCY("PoolOccupancy", Unit.PERCENT, Dimension.PART),
    /** Held slots, as the Scan of an acquisition saw them. */
    POOL_SLOTS_HELD("PoolSlotsHeld", Unit.COUNT, Dimension.PART);

    /** CloudWatch's unit names. */
    public enum Unit {
        COUNT("Count"), MILLISECONDS("Milliseconds"), PERCENT("Percent");

        private final String cloudWatchName;

        Unit(String cloudWatchName) {
            this.cloudWatchName = cloudWatchName;
        }

        public String cloudWatchName() {
            return cloudWatchName;
        }
    }

    private final String metricName;
    private final Unit unit;
    private final List<Dimension> dimensions;

    Metric(String metricName, Unit unit, Dimension... own) {
        this.metricName = metricName;
        this.unit = unit;
        List<Dimension> all = new ArrayList<>();
        all.add(Dimension.SERVICE);
        Collections.addAll(all, own);
        this.dimensions = List.copyOf(all);
    }

    public String metricName() {
        return metricName;
    }

    public Unit unit() {
        return unit;
    }

    /** Its one dimension set, {@link Dimension#SERVICE} first. */
    public List<Dimension> dimensions() {
        return dimensions;
    }
}
