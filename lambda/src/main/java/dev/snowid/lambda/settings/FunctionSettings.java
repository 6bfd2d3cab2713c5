package dev.snowid.lambda.settings;

import dev.snowid.SnowflakeCodec;
import dev.snowid.internal.NumberRange;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import dev.snowid.internal.SettingValues;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.SlotPool;
import dev.snowid.protocol.LeaseAuthMode;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The function's configuration: every environment variable it reads is declared in
 * {@link #CATALOGUE} (name, default, what is allowed, what it means, what it only applies with),
 * and read through it ({@link #get}): a new setting is its declaration and its use.
 * {@code infra/template.yaml} and the docs' settings tables are checked against the catalogue.
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
    /** Hex SHA-256 of the next bearer secret, accepted alongside the current one while clients move to it. */
    public static final String LEASE_SECRET_NEXT_SHA256 = "SNOWID_LEASE_SECRET_NEXT_SHA256";
    /** {@code bearer} (default) or {@code aws_iam}: whether API Gateway's IAM caller identity opens the lease routes. */
    public static final String LEASE_AUTH = "SNOWID_LEASE_AUTH";
    /** In {@code aws_iam} mode, the IAM principals that may use the lease routes; required there ({@link LeasePrincipals}). */
    public static final String LEASE_PRINCIPALS = "SNOWID_LEASE_PRINCIPALS";
    /**
     * How many slots of the pool (its last ones, in table order) only {@code POST /leases} grants;
     * the function's environments lease from the rest. Unset: one pool shared by both.
     */
    public static final String AGENT_SLOTS = "SNOWID_AGENT_SLOTS";
    /** {@code all} (default), {@code ids} or {@code leases}: which routes this function answers ({@link FunctionRole}). */
    public static final String ROLE = "SNOWID_ROLE";
    public static final String DYNAMODB_ENDPOINT = "SNOWID_DYNAMODB_ENDPOINT";
    public static final String METRICS = "SNOWID_METRICS";
    public static final String METRICS_NAMESPACE = "SNOWID_METRICS_NAMESPACE";
    /** The {@code service} of every log line and the {@code Service} dimension of every metric. */
    public static final String SERVICE = "SNOWID_SERVICE";
    /** This stack's region, as claims and decoded IDs name it ({@link RegionSettings}). */
    public static final String REGION = "SNOWID_REGION";
    /** This stack's name in its claims. */
    public static final String STACK = "SNOWID_STACK";
    /** The claim registry table; unset: a lone stack, unguarded. */
    public static final String REGISTRY_TABLE = "SNOWID_REGISTRY_TABLE";
    /** The registry's home region; unset: the function's own. */
    public static final String REGISTRY_REGION = "SNOWID_REGISTRY_REGION";
    /** Endpoint override of the registry (a local engine). */
    public static final String REGISTRY_ENDPOINT = "SNOWID_REGISTRY_ENDPOINT";

    /** Set by the Lambda runtime, not settings: who holds a lease, for people reading the table. */
    public static final String LAMBDA_FUNCTION_NAME = "AWS_LAMBDA_FUNCTION_NAME";
    public static final String LAMBDA_LOG_STREAM_NAME = "AWS_LAMBDA_LOG_STREAM_NAME";
    /** The variables of the Lambda runtime the function reads. */
    public static final List<String> RUNTIME_VARIABLES = List.of(LAMBDA_FUNCTION_NAME, LAMBDA_LOG_STREAM_NAME);

    public static final String DEFAULT_TABLE = "snowid-leases";
    public static final String DEFAULT_DATACENTERS = "0-3";
    public static final String DEFAULT_MACHINES = "0-31";
    public static final String DEFAULT_SERVICE = "snowid";
    public static final String DEFAULT_METRICS_NAMESPACE = "snowid";
    public static final String DEFAULT_REGION = "local";
    public static final String DEFAULT_STACK = "snowid";

    private static final Setting<String> TABLE_SETTING = Setting.named(TABLE).parsedBy(FunctionValues::table)
            .byDefault(DEFAULT_TABLE).allowed(FunctionValues.TABLE_ALLOWED, "3", "255").means("the lease table's name");
    private static final Setting<String> DATACENTERS_SETTING = Setting.named(DATACENTERS).parsedBy(FunctionSettings::range)
            .byDefault(DEFAULT_DATACENTERS)
            .allowed(SlotPool.RANGE_ALLOWED, "0", "31").means("the datacenter range of the pool");
    private static final Setting<String> MACHINES_SETTING = Setting.named(MACHINES).parsedBy(FunctionSettings::range)
            .byDefault(DEFAULT_MACHINES)
            .allowed(SlotPool.RANGE_ALLOWED, "0", "31").means("the machine range of the pool");
    private static final Setting<Long> LEASE_MILLIS_SETTING = Setting.named(LEASE_MILLIS).in(LeaseTerms.LEASE_MILLIS_RANGE)
            .byDefault(Long.toString(LeaseTerms.DEFAULT_LEASE_MILLIS))
            .means("the lease duration, at least 4 x (" + MAX_CLOCK_SKEW_MILLIS + " + 1000)");
    private static final Setting<Long> MAX_CLOCK_SKEW_SETTING = Setting.named(MAX_CLOCK_SKEW_MILLIS).in(LeaseTerms.MAX_CLOCK_SKEW_RANGE)
            .byDefault(Long.toString(LeaseTerms.DEFAULT_MAX_CLOCK_SKEW_MILLIS))
            .means("refuse to lease (and to renew) when the function's clock and DynamoDB's differ by more");
    private static final Setting<SnowflakeCodec> EPOCH_SETTING = Setting.named(EPOCH_MILLIS).parsedBy(FunctionValues::epoch)
            .byDefault(Long.toString(SnowflakeCodec.TWITTER_EPOCH_MILLIS)).allowed(FunctionValues.EPOCH_ALLOWED)
            .means("the ID epoch, unix ms");
    private static final Setting<byte[]> SECRET_SHA256_SETTING = Setting.named(LEASE_SECRET_SHA256).parsedBy(FunctionValues::sha256)
            .allowed(FunctionValues.SHA256_ALLOWED, "64").means("hex SHA-256 of the bearer secret that opens the lease routes");
    private static final Setting<byte[]> NEXT_SHA256_SETTING = Setting.named(LEASE_SECRET_NEXT_SHA256).parsedBy(FunctionValues::sha256)
            .allowed(FunctionValues.SHA256_ALLOWED, "64").means("hex SHA-256 of the next secret, accepted alongside during a rotation");
    private static final Setting<LeaseAuthMode> LEASE_AUTH_SETTING = Setting.named(LEASE_AUTH).parsedBy(LeaseAuthMode::parse)
            .byDefault(LeaseAuthMode.BEARER.value()).allowed(LeaseAuthMode.ALLOWED, "bearer", "aws_iam")
            .means("how a lease request proves who sends it");
    private static final Setting<LeasePrincipals> PRINCIPALS_SETTING = Setting.named(LEASE_PRINCIPALS).parsedBy(LeasePrincipals::parse)
            .onlyWith(LEASE_AUTH_SETTING, LeaseAuthMode.AWS_IAM, "with " + LEASE_AUTH + "=aws_iam: bearer verifies no IAM caller; set "
                    + LEASE_AUTH + "=aws_iam (behind API Gateway IAM authorization), or leave " + LEASE_PRINCIPALS + " empty")
            .allowed("comma- or space-separated ARNs, each of one account: a role (its sessions), role/*, a user, user/*, or"
                    + " assumed-role sessions with '*' within a name", "role/*", "assumed-role")
            .means("with aws_iam, required: the IAM principals that may use the lease routes");
    private static final Setting<String> AGENT_SLOTS_SETTING = Setting.named(AGENT_SLOTS).unsetMeans("a shared pool")
            .allowed("0 to the pool's size - 1", "0")
            .means("the pool's last slots, which only POST /leases grants; the function's environments lease the rest");
    private static final Setting<FunctionRole> ROLE_SETTING = Setting.named(ROLE).parsedBy(FunctionRole::parse)
            .byDefault(FunctionRole.ALL.value()).allowed(FunctionRole.ALLOWED, "all", "ids", "leases")
            .means("which routes this function answers");
    private static final Setting<URI> ENDPOINT_SETTING = Setting.named(DYNAMODB_ENDPOINT).parsedBy(FunctionValues::endpoint)
            .allowed(FunctionValues.ENDPOINT_ALLOWED).means("endpoint override (local engine)");
    private static final Setting<Metrics> METRICS_SETTING = Setting.named(METRICS).parsedBy(Metrics::parse)
            .byDefault("off").allowed(Metrics.ALLOWED, "off", "emf").means("whether to write CloudWatch metrics");
    private static final Setting<String> NAMESPACE_SETTING = Setting.named(METRICS_NAMESPACE).parsedBy(FunctionValues::namespace)
            .byDefault(DEFAULT_METRICS_NAMESPACE).allowed(FunctionValues.NAMESPACE_ALLOWED).means("the metrics' namespace");
    private static final Setting<String> SERVICE_SETTING = Setting.named(SERVICE).parsedBy(FunctionValues::service)
            .byDefault(DEFAULT_SERVICE).allowed(FunctionValues.SERVICE_ALLOWED)
            .means("the service of log lines and the Service dimension of metrics");

    private static final Setting<String> REGION_SETTING = Setting.named(REGION).byDefault(DEFAULT_REGION)
            .allowed("printable ASCII without spaces or '/', e.g. eu-west-1").means("this stack's region, as claims and decoded IDs name it");
    private static final Setting<String> STACK_SETTING = Setting.named(STACK).byDefault(DEFAULT_STACK)
            .allowed("printable ASCII without spaces or '/', e.g. the stack name").means("this stack's name in its claims");
    private static final Setting<String> REGISTRY_TABLE_SETTING = Setting.named(REGISTRY_TABLE).parsedBy(FunctionValues::table)
            .unsetMeans("none: a lone stack, unguarded").allowed(FunctionValues.TABLE_ALLOWED, "3", "255")
            .means("the claim registry table this stack's block must be claimed in before it leases");
    private static final Setting<String> REGISTRY_REGION_SETTING = Setting.named(REGISTRY_REGION).unsetMeans("the function's own region")
            .allowed("an AWS region, e.g. eu-west-1").means("the claim registry's home region");
    private static final Setting<URI> REGISTRY_ENDPOINT_SETTING = Setting.named(REGISTRY_ENDPOINT).parsedBy(FunctionValues::endpoint)
            .allowed(FunctionValues.ENDPOINT_ALLOWED).means("endpoint override of the claim registry (local engine)");

    /** Every {@code SNOWID_*} variable the function reads: the one declaration of each. */
    public static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the function", TABLE_SETTING, DATACENTERS_SETTING,
            MACHINES_SETTING, LEASE_MILLIS_SETTING, MAX_CLOCK_SKEW_SETTING, EPOCH_SETTING, SECRET_SHA256_SETTING, NEXT_SHA256_SETTING,
            LEASE_AUTH_SETTING, PRINCIPALS_SETTING, ROLE_SETTING, AGENT_SLOTS_SETTING, ENDPOINT_SETTING, METRICS_SETTING,
            NAMESPACE_SETTING, SERVICE_SETTING, REGION_SETTING, STACK_SETTING, REGISTRY_TABLE_SETTING, REGISTRY_REGION_SETTING,
            REGISTRY_ENDPOINT_SETTING);

    /** Every {@code SNOWID_*} variable the function reads. */
    static final List<String> NAMES = CATALOGUE.names();

    /** How {@link #METRICS} may be set. */
    public enum Metrics {
        OFF, EMF;

        static final String ALLOWED = "'off' (default) or 'emf' (CloudWatch embedded metric format records on stdout)";

        static Metrics parse(String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "off" -> OFF;
                case "emf" -> EMF;
                default -> throw new IllegalArgumentException("'" + text + "' is not a metrics mode; allowed " + ALLOWED);
            };
        }
    }

    private final SettingValues values;
    /** Settings read from several variables at once, each checked against the others. */
    private final SlotPool pool;
    private final LeaseTerms leaseTerms;
    private final LeasePrincipals leasePrincipals;
    private final PoolParts poolParts;
    private final String holder;
    private final RegionSettings region;
    private final List<String> warnings;

    private FunctionSettings(Map<String, String> env, Collection<String> readElsewhere) {
        warnings = CATALOGUE.unknownNames("environment variable", env.keySet(), "SNOWID_", NAMES, readElsewhere);
        values = values(env, CATALOGUE);
        values.get(TABLE_SETTING);
        pool = SlotPool.parse(values.get(DATACENTERS_SETTING), values.get(MACHINES_SETTING));
        leaseTerms = terms(values.get(LEASE_MILLIS_SETTING), values.get(MAX_CLOCK_SKEW_SETTING));
        leasePrincipals = leasePrincipals(values.get(LEASE_AUTH_SETTING),
                Optional.ofNullable(values.get(PRINCIPALS_SETTING)).orElse(LeasePrincipals.parse("")));
        poolParts = Optional.ofNullable(values.get(AGENT_SLOTS_SETTING)).map(text -> PoolParts.split(pool, agentSlots(text, pool)))
                .orElse(PoolParts.shared(pool));
        holder = holder(env);
        region = RegionSettings.of(values.get(REGION_SETTING), values.get(STACK_SETTING), values.get(REGISTRY_TABLE_SETTING),
                values.get(REGISTRY_REGION_SETTING), values.get(REGISTRY_ENDPOINT_SETTING), pool);
        values.checkAll();
    }

    /**
     * {@code env}'s values of {@code catalogue}'s settings, each variable read under its name; a
     * refusal names the variable ({@link InvalidSettingException}). The local runner reads its own with it too.
     */
    public static SettingValues values(Map<String, String> env, SettingCatalogue catalogue) {
        return SettingValues.of(catalogue, setting -> env.get(setting.name()), new SettingValues.Refusals() {
            @Override
            public RuntimeException invalid(Setting<?> setting, String text, String reason) {
                return new InvalidSettingException(setting.name(), reason);
            }

            @Override
            public RuntimeException inapplicable(Setting<?> setting, String text, String onlyApplies) {
                return new InvalidSettingException(setting.name(), onlyApplies);
            }
        });
    }

    /** {@code setting}'s value (its default when unset), checked at init: a new setting needs no accessor of its own. */
    public <T> T get(Setting<T> setting) {
        return values.get(setting);
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

    public String table() {
        return values.get(TABLE_SETTING);
    }

    /** The slots this deployment may lease, from {@link #DATACENTERS} x {@link #MACHINES}. */
    public SlotPool pool() {
        return pool;
    }

    /** The pool as configured, e.g. "datacenters 0-3, machines 0-31; the last 32 slots for agents", for messages. */
    public String poolDescription() {
        return "datacenters " + values.get(DATACENTERS_SETTING) + ", machines " + values.get(MACHINES_SETTING) + poolParts.describeSplit();
    }

    /** Which slots the function's environments and {@code POST /leases} lease from ({@value #AGENT_SLOTS}). */
    public PoolParts poolParts() {
        return poolParts;
    }

    public LeaseTerms leaseTerms() {
        return leaseTerms;
    }

    public SnowflakeCodec codec() {
        return values.get(EPOCH_SETTING);
    }

    /** The bearer secrets' SHA-256 that open the lease routes: the current one, then the next (rotation); empty when none. */
    public List<byte[]> leaseSecretHashes() {
        List<byte[]> hashes = new ArrayList<>(2);
        for (Setting<byte[]> hash : List.of(SECRET_SHA256_SETTING, NEXT_SHA256_SETTING)) {
            Optional.ofNullable(values.get(hash)).ifPresent(sha256 -> hashes.add(sha256.clone()));
        }
        return hashes;
    }

    /** Which routes this function answers ({@value #ROLE}). */
    public FunctionRole role() {
        return values.get(ROLE_SETTING);
    }

    /**
     * How the lease routes admit a caller ({@value #LEASE_AUTH}). Only {@code AWS_IAM} trusts the
     * caller identity in the request context: API Gateway fills it when it checked SigV4, but
     * anyone allowed to invoke the function directly can write one, so it counts only where the
     * template put IAM in front.
     */
    public LeaseAuthMode leaseAuth() {
        return values.get(LEASE_AUTH_SETTING);
    }

    /** Who may use the lease routes in {@code aws_iam} mode; empty in bearer mode. */
    public LeasePrincipals leasePrincipals() {
        return leasePrincipals;
    }

    public Optional<URI> dynamoDbEndpoint() {
        return Optional.ofNullable(values.get(ENDPOINT_SETTING));
    }

    public Metrics metrics() {
        return values.get(METRICS_SETTING);
    }

    /** The deployment's name in log lines ({@code service}) and metrics (dimension {@code Service}). */
    public String service() {
        return values.get(SERVICE_SETTING);
    }

    /** The CloudWatch namespace of the metrics. */
    public String metricsNamespace() {
        return values.get(NAMESPACE_SETTING);
    }

    /** This stack's region and name, and the claim registry that guards it, if any. */
    public RegionSettings region() {
        return region;
    }

    /** Who this environment is, written into the table's {@code holder} attribute. */
    public String holder() {
        return holder;
    }

    /** A range of the pool, checked alone, so that the message names the one variable at fault. */
    private static String range(String text) {
        SlotPool.checkRange(text);
        return text;
    }

    private static LeaseTerms terms(long leaseMillis, long maxSkew) {
        try {
            return LeaseTerms.of(leaseMillis, maxSkew);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(MAX_CLOCK_SKEW_MILLIS, LEASE_MILLIS + "=" + leaseMillis + ", "
                    + MAX_CLOCK_SKEW_MILLIS + "=" + maxSkew + ": " + e.getMessage());
        }
    }

    /** 0 to the pool's size - 1: the function's environments keep at least one slot. */
    private static int agentSlots(String text, SlotPool pool) {
        NumberRange range = NumberRange.of(0, pool.size() - 1, "slots of the pool of " + pool.size() + " kept for POST /leases;"
                + " the function's environments lease from the rest, so at least one is left to them");
        try {
            return range.parse(text).intValue();
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(AGENT_SLOTS, e.getMessage());
        }
    }

    /** Required in aws_iam mode: else every principal allowed execute-api:Invoke could drain the pool (bearer mode refuses it: {@link #PRINCIPALS_SETTING}). */
    private static LeasePrincipals leasePrincipals(LeaseAuthMode auth, LeasePrincipals principals) {
        if (auth == LeaseAuthMode.AWS_IAM && principals.isEmpty()) {
            throw new InvalidSettingException(LEASE_PRINCIPALS, "is empty, and " + LEASE_AUTH + " is aws_iam: list the IAM roles "
                    + "that may hold slots (e.g. arn:aws:iam::123456789012:role/orders-service, comma-separated); without a list any principal allowed execute-api:Invoke could drain the pool");
        }
        return principals;
    }

    private static String holder(Map<String, String> env) {
        String function = Optional.ofNullable(env.get(LAMBDA_FUNCTION_NAME)).filter(v -> !v.isEmpty()).orElse("snowid");
        return Optional.ofNullable(env.get(LAMBDA_LOG_STREAM_NAME)).filter(v -> !v.isEmpty()).map(stream -> function + "/" + stream)
                .orElse(function);
    }
}
