package dev.snowid.lambda.settings;

import dev.snowid.SnowflakeCodec;
import dev.snowid.internal.ClosestName;
import dev.snowid.internal.WholeNumber;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.SlotPool;
import dev.snowid.protocol.HttpUrl;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The function's configuration: every environment variable it reads is named here, and read
 * here only. {@code infra/template.yaml} is checked against these names.
 *
 * <p>Everything is read and checked once, at init: a bad value stops the function from
 * starting, with a message that names the variable and says what is allowed. An empty
 * variable counts as unset.
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
    /** The {@code service} of every log line and the {@code Service} dimension of every metric. */
    public static final String SERVICE = "SNOWID_SERVICE";
    public static final String METRICS_NAMESPACE = "SNOWID_METRICS_NAMESPACE";
    /**
     * How many slots of the pool (its last ones, in table order) only {@code POST /leases} grants;
     * the function's own environments lease from the rest. Unset: one pool shared by both.
     */
    public static final String AGENT_SLOTS = "SNOWID_AGENT_SLOTS";
    /** {@code bearer} (default) or {@code aws_iam}: whether API Gateway's IAM caller identity opens the lease routes. */
    public static final String LEASE_AUTH = "SNOWID_LEASE_AUTH";
    /**
     * In {@code aws_iam} mode, the IAM principals (ARNs, or patterns with {@code *}) that may use
     * the lease routes; required there ({@link LeasePrincipals}).
     */
    public static final String LEASE_PRINCIPALS = "SNOWID_LEASE_PRINCIPALS";
    /** Hex SHA-256 of the next bearer secret, accepted alongside the current one while clients move to it. */
    public static final String LEASE_SECRET_NEXT_SHA256 = "SNOWID_LEASE_SECRET_NEXT_SHA256";

    /** {@code all} (default), {@code ids} or {@code leases}: which routes this function answers ({@link FunctionRole}). */
    public static final String ROLE = "SNOWID_ROLE";

    /** Set by the Lambda runtime: who holds a lease, for people reading the table. */
    public static final String LAMBDA_FUNCTION_NAME = "AWS_LAMBDA_FUNCTION_NAME";
    public static final String LAMBDA_LOG_STREAM_NAME = "AWS_LAMBDA_LOG_STREAM_NAME";

    public static final String DEFAULT_TABLE = "snowid-leases";
    public static final String DEFAULT_DATACENTERS = "0-3";
    public static final String DEFAULT_MACHINES = "0-31";
    public static final String DEFAULT_SERVICE = "snowid";
    public static final String DEFAULT_METRICS_NAMESPACE = "snowid";

    /** How {@link #METRICS} may be set. */
    public enum Metrics { OFF, EMF }

    /**
     * How {@link #LEASE_AUTH} may be set. Only {@code AWS_IAM} trusts the caller identity in the
     * request context: API Gateway fills it when it checked SigV4, but anyone allowed to invoke
     * the function directly can write one, so it counts only where the template put IAM in front.
     */
    public enum LeaseAuth { BEARER, AWS_IAM }

    private final String table;
    private final String datacenters;
    private final String machines;
    private final SlotPool pool;
    private final LeaseTerms leaseTerms;
    private final SnowflakeCodec codec;
    private final byte[] leaseSecretSha256;
    private final byte[] leaseSecretNextSha256;
    private final LeaseAuth leaseAuth;
    private final LeasePrincipals leasePrincipals;
    private final PoolParts poolParts;
    private final FunctionRole role;
    private final URI dynamoDbEndpoint;
    private final Metrics metrics;
    private final String service;
    private final String metricsNamespace;
    private final String holder;

    /** Every {@code SNOWID_*} variable the function reads. */
    static final List<String> NAMES = List.of(TABLE, DATACENTERS, MACHINES, LEASE_MILLIS, MAX_CLOCK_SKEW_MILLIS, EPOCH_MILLIS,
            LEASE_SECRET_SHA256, LEASE_SECRET_NEXT_SHA256, LEASE_AUTH, AGENT_SLOTS, DYNAMODB_ENDPOINT, METRICS, METRICS_NAMESPACE,
            SERVICE);

    private final List<String> warnings;

    private FunctionSettings(Map<String, String> env, Collection<String> readElsewhere) {
        warnings = unknownNames(env, readElsewhere);
        table = string(env, TABLE).orElse(DEFAULT_TABLE);
        checkTableName(table);
        datacenters = string(env, DATACENTERS).orElse(DEFAULT_DATACENTERS);
        machines = string(env, MACHINES).orElse(DEFAULT_MACHINES);
        pool = pool(datacenters, machines);
        // The bounds are the lease protocol's (LeaseTerms), checked here so the message names the variable.
        long leaseMillis = number(env, LEASE_MILLIS, LeaseTerms.DEFAULT_LEASE_MILLIS, LeaseTerms.MIN_LEASE_MILLIS,
                LeaseTerms.MAX_LEASE_MILLIS, "ms");
        long maxSkew = number(env, MAX_CLOCK_SKEW_MILLIS, LeaseTerms.DEFAULT_MAX_CLOCK_SKEW_MILLIS, 0,
                LeaseTerms.MAX_CLOCK_SKEW_MILLIS, "ms");
        leaseTerms = terms(leaseMillis, maxSkew);
        codec = codec(number(env, EPOCH_MILLIS, SnowflakeCodec.TWITTER_EPOCH_MILLIS, 0,
                Long.MAX_VALUE - SnowflakeCodec.MAX_TIMESTAMP_OFFSET, "unix ms"));
        leaseSecretSha256 = string(env, LEASE_SECRET_SHA256).map(hex -> sha256(LEASE_SECRET_SHA256, hex)).orElse(null);
        leaseSecretNextSha256 = string(env, LEASE_SECRET_NEXT_SHA256).map(hex -> sha256(LEASE_SECRET_NEXT_SHA256, hex)).orElse(null);
        leaseAuth = string(env, LEASE_AUTH).map(FunctionSettings::leaseAuth).orElse(LeaseAuth.BEARER);
        leasePrincipals = leasePrincipals(leaseAuth, string(env, LEASE_PRINCIPALS).orElse(""));
        poolParts = string(env, AGENT_SLOTS).map(text -> PoolParts.split(pool, agentSlots(text, pool))).orElse(PoolParts.shared(pool));
        role = string(env, ROLE).map(FunctionSettings::role).orElse(FunctionRole.ALL);
        dynamoDbEndpoint = string(env, DYNAMODB_ENDPOINT).map(FunctionSettings::endpoint).orElse(null);
        metrics = string(env, METRICS).map(FunctionSettings::metrics).orElse(Metrics.OFF);
        service = string(env, SERVICE).map(FunctionSettings::service).orElse(DEFAULT_SERVICE);
        metricsNamespace = string(env, METRICS_NAMESPACE).map(FunctionSettings::namespace).orElse(DEFAULT_METRICS_NAMESPACE);
        holder = holder(env);
    }

    /** The settings of this process: the Lambda environment, or the local runner's. */
    public static FunctionSettings fromEnvironment() {
        return from(System.getenv());
    }

    /**
     * Settings from the given variables (the local runner and tests pass their own).
     *
     * @throws InvalidSettingException naming the variable with a bad value
     */
    public static FunctionSettings from(Map<String, String> env) {
        return new FunctionSettings(env, List.of());
    }

    /** As {@link #from(Map)}, where the process also reads {@code readElsewhere} (the local runner's own variables). */
    public static FunctionSettings from(Map<String, String> env, Collection<String> readElsewhere) {
        return new FunctionSettings(env, readElsewhere);
    }

    /**
     * One line per {@code SNOWID_*} variable the function does not read (a typo keeps a default
     * silently otherwise), with the closest name it does read: logged at start-up.
     */
    public List<String> warnings() {
        return warnings;
    }

    private static List<String> unknownNames(Map<String, String> env, Collection<String> readElsewhere) {
        List<String> known = new ArrayList<>(NAMES);
        known.addAll(readElsewhere);
        List<String> unknown = new ArrayList<>();
        for (String name : new java.util.TreeSet<>(env.keySet())) {
            if (name.startsWith("SNOWID_") && !known.contains(name)) {
                String closest = ClosestName.didYouMean(name, known);
                unknown.add("environment variable " + name + " is not a setting of the function and is ignored"
                        + (closest.isEmpty() ? "; it reads " + NAMES : closest));
            }
        }
        return List.copyOf(unknown);
    }

    public String table() {
        return table;
    }

    /** The slots this deployment may lease, from {@link #DATACENTERS} x {@link #MACHINES}. */
    public SlotPool pool() {
        return pool;
    }

    /** The pool as configured, e.g. "datacenters 0-3, machines 0-31; the last 32 slots for agents", for messages. */
    public String poolDescription() {
        return "datacenters " + datacenters + ", machines " + machines + poolParts.describeSplit();
    }

    /** Which slots the function's environments and {@code POST /leases} lease from ({@value #AGENT_SLOTS}). */
    public PoolParts poolParts() {
        return poolParts;
    }

    public LeaseTerms leaseTerms() {
        return leaseTerms;
    }

    public SnowflakeCodec codec() {
        return codec;
    }

    /** The bearer secrets' SHA-256 that open the lease routes: the current one, then the next (rotation); empty when none. */
    public List<byte[]> leaseSecretHashes() {
        List<byte[]> hashes = new ArrayList<>(2);
        if (leaseSecretSha256 != null) {
            hashes.add(leaseSecretSha256.clone());
        }
        if (leaseSecretNextSha256 != null) {
            hashes.add(leaseSecretNextSha256.clone());
        }
        return hashes;
    }

    /** Which routes this function answers ({@value #ROLE}). */
    public FunctionRole role() {
        return role;
    }

    public LeaseAuth leaseAuth() {
        return leaseAuth;
    }

    /** Who may use the lease routes in {@code aws_iam} mode; empty in bearer mode. */
    public LeasePrincipals leasePrincipals() {
        return leasePrincipals;
    }

    public Optional<URI> dynamoDbEndpoint() {
        return Optional.ofNullable(dynamoDbEndpoint);
    }

    public Metrics metrics() {
        return metrics;
    }

    /** The deployment's name in log lines ({@code service}) and metrics (dimension {@code Service}). */
    public String service() {
        return service;
    }

    /** The CloudWatch namespace of the metrics. */
    public String metricsNamespace() {
        return metricsNamespace;
    }

    /** Who this environment is, written into the table's {@code holder} attribute. */
    public String holder() {
        return holder;
    }

    private static Optional<String> string(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).filter(v -> !v.isEmpty());
    }

    /**
     * The whole number in {@code env}'s {@code name}, {@code fallback} when unset, else digits only
     * from {@code min} to {@code max}; the local runner reads its own settings with it too.
     *
     * @throws InvalidSettingException naming {@code name} and what is allowed
     */
    public static long number(Map<String, String> env, String name, long fallback, long min, long max, String unit) {
        Optional<String> text = string(env, name);
        if (text.isEmpty()) {
            return fallback;
        }
        String allowed = "allowed a whole number from " + min + " to " + max + " (" + unit + ")";
        try {
            return WholeNumber.parse(text.get(), min, max);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(name, e.getMessage() + "; " + allowed);
        }
    }

    private static void checkTableName(String table) {
        // DynamoDB's own rule; checked here so a typo fails at init, not on the first request.
        if (table.length() < 3 || table.length() > 255 || !table.chars().allMatch(c -> c >= 'a' && c <= 'z'
                || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.')) {
            throw new InvalidSettingException(TABLE, "'" + table
                    + "' is not a DynamoDB table name; allowed 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'");
        }
    }

    private static SlotPool pool(String datacenters, String machines) {
        checkRange(DATACENTERS, datacenters);
        checkRange(MACHINES, machines);
        try {
            return SlotPool.parse(datacenters, machines);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(DATACENTERS, DATACENTERS + "='" + datacenters + "', " + MACHINES + "='"
                    + machines + "': " + e.getMessage());
        }
    }

    /** "a-b" or "a", 0 to 31, a <= b: checked here so the message names the one variable at fault. */
    private static void checkRange(String name, String text) {
        String allowed = "allowed a range 'a-b' or a single number 'a', from 0 to 31 (e.g. 0-3)";
        int dash = text.indexOf('-');
        String low = dash < 0 ? text : text.substring(0, dash);
        String high = dash < 0 ? text : text.substring(dash + 1);
        if (!isSmallNumber(low) || !isSmallNumber(high)) {
            throw new InvalidSettingException(name, "'" + text + "' is not a range; " + allowed);
        }
        int from = Integer.parseInt(low);
        int to = Integer.parseInt(high);
        if (to > 31 || from > to) {
            throw new InvalidSettingException(name, "'" + text + "' is out of range or reversed; " + allowed);
        }
    }

    private static boolean isSmallNumber(String text) {
        return !text.isEmpty() && text.length() <= 2 && text.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static LeaseTerms terms(long leaseMillis, long maxSkew) {
        try {
            return LeaseTerms.of(leaseMillis, maxSkew);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(MAX_CLOCK_SKEW_MILLIS, LEASE_MILLIS + "=" + leaseMillis + ", "
                    + MAX_CLOCK_SKEW_MILLIS + "=" + maxSkew + ": " + e.getMessage());
        }
    }

    private static SnowflakeCodec codec(long epochMillis) {
        try {
            return SnowflakeCodec.withPastEpoch(epochMillis, System.currentTimeMillis());
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(EPOCH_MILLIS, e.getMessage() + "; allowed a unix ms in the past, e.g. the default "
                    + SnowflakeCodec.TWITTER_EPOCH_MILLIS + " (Twitter's epoch)");
        }
    }

    private static byte[] sha256(String name, String hex) {
        if (hex.length() != 64) {
            throw new InvalidSettingException(name, "has " + hex.length()
                    + " characters; allowed exactly 64 hex digits, the SHA-256 of the bearer secret (e.g. printf %s \"$SECRET\" | sha256sum | cut -d' ' -f1)");
        }
        try {
            return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(name, "is not hex; allowed exactly 64 hex digits, the SHA-256 of the bearer secret (e.g. "
                    + "printf %s \"$SECRET\" | sha256sum | cut -d' ' -f1)");
        }
    }

    private static URI endpoint(String text) {
        String allowed = "allowed an http(s) URL such as http://localhost:8000";
        try {
            return URI.create(HttpUrl.parse(text).toString());
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(DYNAMODB_ENDPOINT, "'" + text + "' " + e.getMessage() + "; " + allowed);
        }
    }

    private static Metrics metrics(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "off" -> Metrics.OFF;
            case "emf" -> Metrics.EMF;
            default -> throw new InvalidSettingException(METRICS, "'" + text
                    + "' is not a metrics mode; allowed 'off' (default) or 'emf' (CloudWatch embedded metric format records on stdout)");
        };
    }

    /** A CloudWatch dimension value: kept to printable ASCII, so a dashboard can name it in a URL or a template. */
    private static String service(String text) {
        if (text.length() > 255 || text.isBlank() || !text.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            throw new InvalidSettingException(SERVICE, "'" + shortened(text)
                    + "' is not a service name; allowed 1 to 255 printable ASCII characters, not all spaces (e.g. the stack name)");
        }
        return text;
    }

    /** CloudWatch's rule for custom namespaces. */
    private static String namespace(String text) {
        boolean allowed = text.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || ".-_/#: ".indexOf(c) >= 0);
        if (text.length() > 255 || text.isBlank() || !allowed || text.startsWith("AWS/")) {
            throw new InvalidSettingException(METRICS_NAMESPACE, "'" + shortened(text) + "' is not a CloudWatch namespace; allowed 1 to 255"
                    + " characters of a-z, A-Z, 0-9, '.', '-', '_', '/', '#', ':' and space, not starting with 'AWS/' (e.g. snowid)");
        }
        return text;
    }

    private static String shortened(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }

    private static int agentSlots(String text, SlotPool pool) {
        String allowed = "allowed a whole number from 0 to " + (pool.size() - 1) + " (slots of the pool of " + pool.size()
                + " kept for POST /leases; the function's environments lease from the rest, so at least one is left to them)";
        if (text.length() > 4 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidSettingException(AGENT_SLOTS, "'" + text + "' is not a whole number; " + allowed);
        }
        int count = Integer.parseInt(text);
        if (count >= pool.size()) {
            throw new InvalidSettingException(AGENT_SLOTS, count + " is out of range; " + allowed);
        }
        return count;
    }

    private static FunctionRole role(String text) {
        for (FunctionRole role : FunctionRole.values()) {
            if (role.value().equals(text.toLowerCase(Locale.ROOT))) {
                return role;
            }
        }
        throw new InvalidSettingException(ROLE, "'" + text + "' is not a role; allowed 'all' (default: every route), 'ids' (the public"
                + " routes; the lease routes refused) or 'leases' (the lease routes only)");
    }

    private static LeaseAuth leaseAuth(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "bearer" -> LeaseAuth.BEARER;
            case "aws_iam" -> LeaseAuth.AWS_IAM;
            default -> throw new InvalidSettingException(LEASE_AUTH, "'" + text + "' is not a lease auth mode; allowed 'bearer' (default: "
                    + "Authorization: Bearer <secret>) or 'aws_iam' (only behind API Gateway IAM authorization: the caller identity it verified)");
        };
    }

    /** Required in aws_iam mode (else every principal allowed execute-api:Invoke could drain the pool), refused in bearer mode. */
    private static LeasePrincipals leasePrincipals(LeaseAuth auth, String text) {
        LeasePrincipals principals;
        try {
            principals = LeasePrincipals.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(LEASE_PRINCIPALS, e.getMessage());
        }
        if (auth == LeaseAuth.AWS_IAM && principals.isEmpty()) {
            throw new InvalidSettingException(LEASE_PRINCIPALS, "is empty, and " + LEASE_AUTH + " is aws_iam: list the IAM roles "
                    + "that may hold slots (e.g. arn:aws:iam::123456789012:role/orders-service, comma-separated, '*' for any "
                    + "characters); without a list any principal allowed execute-api:Invoke could drain the pool");
        }
        if (auth == LeaseAuth.BEARER && !principals.isEmpty()) {
            throw new InvalidSettingException(LEASE_PRINCIPALS, "is set, but " + LEASE_AUTH + " is bearer, which verifies no IAM "
                    + "caller: set " + LEASE_AUTH + "=aws_iam (behind API Gateway IAM authorization), or leave it empty");
        }
        return principals;
    }

    private static String holder(Map<String, String> env) {
        String function = string(env, LAMBDA_FUNCTION_NAME).orElse("snowid");
        return string(env, LAMBDA_LOG_STREAM_NAME).map(stream -> function + "/" + stream).orElse(function);
    }
}
