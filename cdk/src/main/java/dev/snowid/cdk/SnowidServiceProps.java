package dev.snowid.cdk;

import dev.snowid.lambda.settings.LeasePrincipals;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.Token;

/**
 * What a {@link SnowidService} deploys: the template's parameters, typed. Each setter sets the
 * parameter its javadoc names (infra/template.yaml describes it); what is not set keeps the
 * template's default. {@link Builder#build()} refuses what CloudFormation would refuse (the
 * parameter's constraints, the template's Rules), principals the function would refuse at
 * start-up, and a secret hash that is the hash of nothing.
 */
public final class SnowidServiceProps {

    /** The SHA-256 of the empty string: a "secret" anyone can send. */
    static final String EMPTY_SECRET_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final List<String> SECRET_HASHES = List.of("LeaseSecretSha256", "LeaseSecretNextSha256");

    private final Map<String, String> parameters;

    private SnowidServiceProps(Map<String, String> parameters) {
        this.parameters = Collections.unmodifiableMap(parameters);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Every template parameter with its value (given, or the template's default). */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** How the lease routes are protected (LeaseAuth). */
    public enum LeaseAuth { BEARER, AWS_IAM }

    /** Whether /ids is public (IdsAuth). */
    public enum IdsAuth { NONE, AWS_IAM }

    /** The functions' Lambda runtime (Runtime). */
    public enum Runtime { JAVA21, JAVA25 }

    /** Where agents reach the lease routes (LeaseEndpoint). */
    public enum LeaseEndpoint { PUBLIC, VPC }

    public static final class Builder {

        private final Map<String, String> given = new LinkedHashMap<>();

        private Builder() {
        }

        private Builder set(String parameter, Object value) {
            String text = String.valueOf(value);
            // CloudFormation Rules compare literal values only; a token would reach them unevaluated.
            if (Token.isUnresolved(text)) {
                throw new IllegalArgumentException("snowid: " + parameter + " must be a literal value, not a token "
                        + "(CloudFormation checks it in the template's Rules, which take literals only)");
            }
            given.put(parameter, text);
            return this;
        }

        /** Datacenters: this stack's block of 4 datacenters, such as "0-3"; required. */
        public Builder datacenters(String block) {
            return set("Datacenters", block);
        }

        /** RegistryTable: the claim registry of a multi-region fleet; unset for a lone stack. */
        public Builder registryTable(String table) {
            return set("RegistryTable", table);
        }

        /** RegistryRegion: the registry's home region; unset for this stack's own. */
        public Builder registryRegion(String region) {
            return set("RegistryRegion", region);
        }

        /** AgentSlots: slots of the block kept for agents (0 to 112, in steps of 16). */
        public Builder agentSlots(int slots) {
            return set("AgentSlots", slots);
        }

        /** ReservedConcurrency: most environments of the ids function (MaxExecutionEnvironments on Managed Instances), at most 128 - AgentSlots. */
        public Builder reservedConcurrency(int environments) {
            return set("ReservedConcurrency", environments);
        }

        /**
         * ManagedInstances: the public routes on Lambda Managed Instances, in place of SnapStart;
         * {@link #reservedConcurrency} is then the most execution environments. Needs
         * {@link #managedSubnetIds} and {@link #managedSecurityGroupIds} (the template's Rules say so at build()).
         */
        public Builder managedInstances(boolean on) {
            return set("ManagedInstances", on ? "on" : "off");
        }

        /** ManagedSubnetIds: the capacity provider's subnets, each with a DynamoDB gateway endpoint. */
        public Builder managedSubnetIds(List<String> subnetIds) {
            return set("ManagedSubnetIds", String.join(",", subnetIds));
        }

        /** ManagedSecurityGroupIds: the capacity provider's security groups. */
        public Builder managedSecurityGroupIds(List<String> securityGroupIds) {
            return set("ManagedSecurityGroupIds", String.join(",", securityGroupIds));
        }

        /** Runtime: the functions' Lambda runtime, java21 or java25. */
        public Builder runtime(Runtime runtime) {
            return set("Runtime", runtime.name().toLowerCase(Locale.ROOT));
        }

        /** LeaseConcurrency: most environments of the lease function. */
        public Builder leaseConcurrency(int environments) {
            return set("LeaseConcurrency", environments);
        }

        /** AuthorizerConcurrency: most environments of the bearer authorizer. */
        public Builder authorizerConcurrency(int environments) {
            return set("AuthorizerConcurrency", environments);
        }

        /** LeaseMillis: lease duration. */
        public Builder leaseMillis(long millis) {
            return set("LeaseMillis", millis);
        }

        /** MaxClockSkewMillis: refuse to lease beyond this skew from DynamoDB's clock. */
        public Builder maxClockSkewMillis(long millis) {
            return set("MaxClockSkewMillis", millis);
        }

        /** LeaseAuth: BEARER (with {@link #leaseSecretSha256}) or AWS_IAM (with {@link #leasePrincipals}). */
        public Builder leaseAuth(LeaseAuth auth) {
            return set("LeaseAuth", auth.name());
        }

        /** IdsAuth: NONE (public /ids) or AWS_IAM. */
        public Builder idsAuth(IdsAuth auth) {
            return set("IdsAuth", auth.name());
        }

        /**
         * LeasePrincipals: with AWS_IAM, the IAM principals that may lease, checked as the function
         * checks them when it starts.
         */
        public Builder leasePrincipals(List<String> principals) {
            String joined = String.join(",", principals);
            try {
                LeasePrincipals.parse(joined);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("snowid: LeasePrincipals: " + e.getMessage(), e);
            }
            return set("LeasePrincipals", joined);
        }

        /** LeaseSecretSha256: hex SHA-256 of the agents' bearer secret; never the secret itself. */
        public Builder leaseSecretSha256(String sha256) {
            return set("LeaseSecretSha256", sha256);
        }

        /** LeaseSecretNextSha256: hex SHA-256 of the next bearer secret, during a rotation. */
        public Builder leaseSecretNextSha256(String sha256) {
            return set("LeaseSecretNextSha256", sha256);
        }

        /** LeaseEndpoint: PUBLIC, or VPC (a private lease API too, through {@link #leaseVpcEndpointId}). */
        public Builder leaseEndpoint(LeaseEndpoint endpoint) {
            return set("LeaseEndpoint", endpoint.name().toLowerCase(Locale.ROOT));
        }

        /** LeaseVpcEndpointId: with VPC, the execute-api endpoint (vpce-...). */
        public Builder leaseVpcEndpointId(String endpointId) {
            return set("LeaseVpcEndpointId", endpointId);
        }

        /** ThrottlingRateLimit: requests per second the stage passes on. */
        public Builder throttlingRateLimit(int perSecond) {
            return set("ThrottlingRateLimit", perSecond);
        }

        /** ThrottlingBurstLimit: the stage's burst. */
        public Builder throttlingBurstLimit(int requests) {
            return set("ThrottlingBurstLimit", requests);
        }

        /** PublicThrottlingRateLimit: requests per second of each public route. */
        public Builder publicThrottlingRateLimit(int perSecond) {
            return set("PublicThrottlingRateLimit", perSecond);
        }

        /** PublicThrottlingBurstLimit: burst of each public route. */
        public Builder publicThrottlingBurstLimit(int requests) {
            return set("PublicThrottlingBurstLimit", requests);
        }

        /** AccessLogRetentionDays: days the API's access log keeps its lines. */
        public Builder accessLogRetentionDays(int days) {
            return set("AccessLogRetentionDays", days);
        }

        /** Metrics: whether the function writes embedded-metric records ("emf" or "off"). */
        public Builder metrics(boolean emf) {
            return set("Metrics", emf ? "emf" : "off");
        }

        /** MetricsNamespace: CloudWatch namespace of the function's metrics. */
        public Builder metricsNamespace(String namespace) {
            return set("MetricsNamespace", namespace);
        }

        /** ServiceName: the service of log lines and metrics; unset for the stack's name. */
        public Builder serviceName(String service) {
            return set("ServiceName", service);
        }

        /** LogLevel: lowest level of the function's log lines Lambda keeps (TRACE to FATAL). */
        public Builder logLevel(String level) {
            return set("LogLevel", level);
        }

        /** Alarms: whether the CloudWatch alarms are created. */
        public Builder alarms(boolean on) {
            return set("Alarms", on ? "on" : "off");
        }

        /** AlarmEmail: an address subscribed to the alarm topic. */
        public Builder alarmEmail(String address) {
            return set("AlarmEmail", address);
        }

        /** LatencyAlarmMillis: the p99 of /ids that raises the latency alarm. */
        public Builder latencyAlarmMillis(int millis) {
            return set("LatencyAlarmMillis", millis);
        }

        /** Dashboard: whether the CloudWatch dashboard is created. */
        public Builder dashboard(boolean on) {
            return set("Dashboard", on ? "on" : "off");
        }

        /** LogRetentionDays: days the function's log group keeps its logs. */
        public Builder logRetentionDays(int days) {
            return set("LogRetentionDays", days);
        }

        /**
         * @throws IllegalArgumentException a value the template, its Rules or the function would refuse;
         *         the message names each parameter and says what is allowed
         */
        public SnowidServiceProps build() {
            for (String name : SECRET_HASHES) {
                if (EMPTY_SECRET_SHA256.equalsIgnoreCase(given.getOrDefault(name, ""))) {
                    throw new IllegalArgumentException("snowid: " + name + " is the SHA-256 of the empty string, a secret "
                            + "anyone can send: hash a secret of your own (printf %s \"$SECRET\" | sha256sum)");
                }
            }
            return new SnowidServiceProps(SnowidTemplate.bundled().resolve(given));
        }
    }
}
