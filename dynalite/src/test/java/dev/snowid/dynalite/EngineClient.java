package dev.snowid.dynalite;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/** A plain SDK client for an engine on loopback (it accepts any signature; the SDK insists on one). */
final class EngineClient {

    private EngineClient() {
    }

    static DynamoDbClient of(URI endpoint) {
        return builder(endpoint).build();
    }

    /** A client that shows {@code credential} in every request, as the local runner's own. */
    static DynamoDbClient of(URI endpoint, EngineCredential credential) {
        ExecutionInterceptor header = new ExecutionInterceptor() {
            @Override
            public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
                return context.httpRequest().toBuilder().putHeader(EngineCredential.HEADER, credential.value()).build();
            }
        };
        return builder(endpoint).overrideConfiguration(o -> o.addExecutionInterceptor(header)).build();
    }

    private static DynamoDbClientBuilder builder(URI endpoint) {
        return DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("snowid-test", "snowid-test")))
                .httpClient(UrlConnectionHttpClient.create());
    }
}
