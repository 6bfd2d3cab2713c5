package dev.snowid.bench.coldstart;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@link DynamoDbFloor} as a Lambda handler: the client built at init, one conditional UpdateItem
 * per event, a fixed API Gateway answer. {@code cold-start.sh}'s ric part runs it under the runtime
 * interface client beside the function ({@code RIC_HANDLER}), so the client's own start-up cost is
 * on both sides and the ratio is the function's alone. Endpoint and table from
 * {@code SNOWID_DYNAMODB_ENDPOINT} and {@code SNOWID_FLOOR_TABLE}.
 */
public final class FloorHandler implements RequestStreamHandler {

    private final DynamoDbClient client = DynamoDbClient.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .endpointOverride(URI.create(System.getenv("SNOWID_DYNAMODB_ENDPOINT")))
            .build();
    private final String table = System.getenv("SNOWID_FLOOR_TABLE");

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        input.readAllBytes();
        String now = Long.toString(System.currentTimeMillis());
        // DynamoDbFloor's write, repeated: cold-start.sh's task root holds this one class, as /var/task would.
        client.updateItem(update -> update.tableName(table)
                .key(Map.of("slot", AttributeValue.fromN("1023")))
                .conditionExpression("attribute_not_exists(#slot) OR #expiresAt < :now")
                .updateExpression("SET #expiresAt = :now")
                .expressionAttributeNames(Map.of("#slot", "slot", "#expiresAt", "expiresAt"))
                .expressionAttributeValues(Map.of(":now", AttributeValue.fromN(now))));
        output.write("{\"statusCode\":200,\"body\":\"floor\"}".getBytes(StandardCharsets.UTF_8));
    }
}
