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
 * <p>Defaults: connect 500 ms, socket 1 s, each attempt 1 s, 4 attempts with full-jitter
 * exponential backoff (25 ms base, 400 ms cap; throttling 100 ms base, 1 s cap). Worst case,
 * about 5.5 s before the store gives up with {@code LeaseStoreUnavailableException}.
 */
public final class LeaseTableClient {

    /** Region used to sign requests to a local engine when {@code AWS_REGION} is not set. */
    static final String LOCAL_REGION = "us-east-1";

    private LeaseTableClient() {
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {

        private URI endpoint;
        private Duration connectTimeout = Duration.ofMillis(500);
        private Duration attemptTimeout = Duration.ofSeconds(1);
        private int maxAttempts = 4;
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

        public Builder interceptor(ExecutionInterceptor interceptor) {
            interceptors.add(interceptor);
            return this;
        }

        int maxAttempts() {
            return maxAttempts;
        }

        Optional<URI> endpoint() {
            return Optional.ofNullable(endpoint);
        }

        public DynamoDbClient build() {
            DynamoDbClientBuilder client = DynamoDbClient.builder()
                    .httpClient(UrlConnectionHttpClient.builder()
                            .connectionTimeout(connectTimeout)
                            .socketTimeout(attemptTimeout)
                            .build())
                    .overrideConfiguration(ClientOverrideConfiguration.builder()
                            .retryStrategy(retryStrategy())
                            .apiCallAttemptTimeout(attemptTimeout)
                            .executionInterceptors(List.copyOf(interceptors))
                            .build());
            if (endpoint != null) {
                client.endpointOverride(endpoint)
                        .region(Region.of(Optional.ofNullable(System.getenv("AWS_REGION")).orElse(LOCAL_REGION)));
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
