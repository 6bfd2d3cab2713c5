package dev.snowid.dynalite;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** A plain SDK client for an engine on loopback (it accepts any signature; the SDK insists on one). */
final class EngineClient {

    private EngineClient() {
    }

    static DynamoDbClient of(URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("snowid-test", "snowid-test")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }
}
