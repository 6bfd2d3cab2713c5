package dev.snowid.lambda.dynamodb;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * The SDK client the lease table is reached with: the JDK's HTTP client (no Netty or Apache:
 * smaller, faster cold start), short timeouts, and an explicit retry strategy, because a lease
 * call sits on a request path and must give up in seconds, not minutes.
 *
 * <p><b>The time budget</b> (the one place its numbers live; docs/api.md "Outages" repeats them).
 * A request must end before the function's timeout, or Lambda kills it and the client gets a bare
 * gateway error instead of our 503 with {@code Retry-After}:
 * <ul>
 *   <li>one HTTP attempt: {@link #ATTEMPT_TIMEOUT} (connect at most {@link #CONNECT_TIMEOUT});
 *       at most {@link #MAX_ATTEMPTS} attempts, full-jitter backoff between them;</li>
 *   <li>one store operation (a {@code LeaseStore} method: its write, the writes that confirm or
 *       follow it, every attempt and backoff of each): at most {@link #OPERATION_TIMEOUT}, a
 *       deadline each SDK call gets what is left of as its {@code apiCallTimeout};</li>
 *   <li>one acquisition: at most {@link #OPERATIONS_PER_ACQUISITION} operations (a random probe,
 *       the Scan, {@code PooledLeaseSource.MAX_ATTEMPTS_AFTER_SCAN} = 3 writes, and one release
 *       when the store's clock turns out too far off), so at most {@link #ACQUISITION_BUDGET};</li>
 *   <li>one request: at most {@link #OPERATIONS_PER_REQUEST} operations, {@link #REQUEST_BUDGET},
 *       well inside the function's timeout (15 s): on {@code /ids} an acquisition plus two
 *       renewals (a lease that ran out is renewed, then re-acquired); on {@code POST /leases} an
 *       acquisition with a request id, which adds its claim and the record of its grant (a retry
 *       reads its recorded slot's item instead of the probe; a handback after a failed record
 *       replaces the one for a clock too far off).</li>
 * </ul>
 * In an outage the first operation fails and the request answers 503 after about one
 * {@link #OPERATION_TIMEOUT}; the larger bounds hold for a store that is slow but answers.
 */
public final class LeaseTableClient {

    public static final Duration CONNECT_TIMEOUT = Duration.ofMillis(500);
    public static final Duration ATTEMPT_TIMEOUT = Duration.ofMillis(500);
    public static final int MAX_ATTEMPTS = 3;
    /** Every attempt of an operation gets its full time; backoff comes out of the same budget. */
    public static final Duration OPERATION_TIMEOUT = ATTEMPT_TIMEOUT.multipliedBy(MAX_ATTEMPTS);
    public static final int OPERATIONS_PER_ACQUISITION = 6;
    public static final Duration ACQUISITION_BUDGET = OPERATION_TIMEOUT.multipliedBy(OPERATIONS_PER_ACQUISITION);
    public static final int OPERATIONS_PER_REQUEST = OPERATIONS_PER_ACQUISITION + 2;
    public static final Duration REQUEST_BUDGET = OPERATION_TIMEOUT.multipliedBy(OPERATIONS_PER_REQUEST);

    /** Region used to sign requests to a local engine when {@code AWS_REGION} is not set. */
    static final String LOCAL_REGION = "us-east-1";

    private LeaseTableClient() {
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {

        private URI endpoint;
        private String region;
        private Duration connectTimeout = CONNECT_TIMEOUT;
        private Duration attemptTimeout = ATTEMPT_TIMEOUT;
        private int maxAttempts = MAX_ATTEMPTS;
        /** Null: attempts x attempt timeout ({@link #OPERATION_TIMEOUT} with the defaults). */
        private Duration operationTimeout;
        private final List<ExecutionInterceptor> interceptors = new ArrayList<>();

        private Builder() {
        }

        /** An endpoint override (dynalite, LocalStack); DynamoDB of the function's region when absent. */
        public Builder endpoint(URI endpoint) {
            this.endpoint = endpoint;
            return this;
        }

        public Builder endpoint(Optional<URI> endpoint) {
            this.endpoint = endpoint.orElse(null);
            return this;
        }

        /** The region the table is in; the function's own ({@code AWS_REGION}) when absent. */
        public Builder region(String region) {
            this.region = region == null || region.isEmpty() ? null : region;
            return this;
        }

        /** Time for one HTTP attempt (also the socket read timeout). */
        public Builder attemptTimeout(Duration attemptTimeout) {
            if (attemptTimeout.isNegative() || attemptTimeout.isZero()) {
                throw new IllegalArgumentException("attempt timeout must be positive, was " + attemptTimeout);
            }
            this.attemptTimeout = attemptTimeout;
            this.connectTimeout = attemptTimeout.compareTo(connectTimeout) < 0 ? attemptTimeout : connectTimeout;
            return this;
        }

        /** Attempts per call, the first included: 1 means no retry. */
        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < 1 || maxAttempts > 10) {
                throw new IllegalArgumentException("max attempts must be 1 to 10, was " + maxAttempts);
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        /** Time for all SDK calls of one store operation, retries and backoff included; attempts x attempt timeout by default. */
        public Builder operationTimeout(Duration operationTimeout) {
            if (operationTimeout.isNegative() || operationTimeout.isZero()) {
                throw new IllegalArgumentException("operation timeout must be positive, was " + operationTimeout);
            }
            this.operationTimeout = operationTimeout;
            return this;
        }

        public Builder interceptor(ExecutionInterceptor interceptor) {
            interceptors.add(interceptor);
            return this;
        }

        int maxAttempts() {
            return maxAttempts;
        }

        Duration operationTimeout() {
            return operationTimeout != null ? operationTimeout : attemptTimeout.multipliedBy(maxAttempts);
        }

        Optional<URI> endpoint() {
            return Optional.ofNullable(endpoint);
        }

        public DynamoDbClient build() {
            DynamoDbClientBuilder client = DynamoDbClient.builder()
                    .httpClient(new PrimingHttpClient(UrlConnectionHttpClient.builder()
                            .connectionTimeout(connectTimeout)
                            .socketTimeout(attemptTimeout)
                            .build()))
                    .overrideConfiguration(ClientOverrideConfiguration.builder()
                            .retryStrategy(retryStrategy())
                            .apiCallAttemptTimeout(attemptTimeout)
                            // A backstop: the store sets each call's own from its operation's deadline.
                            .apiCallTimeout(operationTimeout())
                            .executionInterceptors(List.copyOf(interceptors))
                            .build());
            if (region != null) {
                client.region(Region.of(region));
            }
            if (endpoint != null) {
                client.endpointOverride(endpoint)
                        .region(Region.of(Optional.ofNullable(region).or(() -> Optional.ofNullable(System.getenv("AWS_REGION")))
                                .orElse(LOCAL_REGION)));
                if (isLoopback(endpoint)) {
                    // Local engines accept any signature, but the SDK insists on signing with something.
                    client.credentialsProvider(StaticCredentialsProvider.create(
                            AwsBasicCredentials.create("snowid-local", "snowid-local")));
                }
            }
            return client.build();
        }

        private RetryStrategy retryStrategy() {
            // The AWS standard strategy already knows which errors are retryable (throttling
            // codes, 5xx, I/O errors and timeouts). Its circuit breaker is off: attempts are few
            // and bounded anyway, and a breaker tripped by an outage would keep failing calls
            // for a while after the store came back.
            return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                    .maxAttempts(maxAttempts)
                    .backoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(25), Duration.ofMillis(400)))
                    .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(100), Duration.ofSeconds(1)))
                    .circuitBreakerEnabled(false)
                    .build();
        }

        private static boolean isLoopback(URI endpoint) {
            try {
                return endpoint.getHost() != null && InetAddress.getByName(endpoint.getHost()).isLoopbackAddress();
            } catch (UnknownHostException e) {
                return false;
            }
        }
    }
}
