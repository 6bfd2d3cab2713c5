package dev.snowid.lambda;

/**
 * The function's configuration: every environment variable it reads is named here, and read
 * here only. {@code infra/template.yaml} is checked against these names.
 */
public final class FunctionSettings {

    public static final String TABLE = "SNOWID_TABLE";
    public static final String DATACENTERS = "SNOWID_DATACENTERS";
    public static final String MACHINES = "SNOWID_MACHINES";
    public static final String LEASE_MILLIS = "SNOWID_LEASE_MILLIS";
    public static final String MAX_CLOCK_SKEW_MILLIS = "SNOWID_MAX_CLOCK_SKEW_MILLIS";
    public static final String EPOCH_MILLIS = "SNOWID_EPOCH_MILLIS";
    public static final String LEASE_SECRET_SHA256 = "SNOWID_LEASE_SECRET_SHA256";
    public static final String DYNAMODB_ENDPOINT = "SNOWID_DYNAMODB_ENDPOINT";
    public static final String METRICS = "SNOWID_METRICS";

    private FunctionSettings() {
    }
}
