package dev.snowid.testing.engine;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * The client tests set tables up and read them with: the SDK over the JDK's HTTP client, with
 * time enough for an engine that has just started. Not the function's client: the code under
 * test builds its own.
 */
final class EngineClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private EngineClient() {
    }

    static DynamoDbClient of(URI endpoint) {
        DynamoDbClientBuilder client = DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.of(Optional.ofNullable(System.getenv("AWS_REGION")).orElse("us-east-1")))
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(TIMEOUT).socketTimeout(TIMEOUT).build());
        if (onLoopback(endpoint)) {
            // A local engine takes any signature; real DynamoDB gets the credentials of the usual chain.
            client.credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("snowid-test", "snowid-test")));
        }
        return client.build();
    }

    private static boolean onLoopback(URI endpoint) {
        try {
            return endpoint.getHost() != null && InetAddress.getByName(endpoint.getHost()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
