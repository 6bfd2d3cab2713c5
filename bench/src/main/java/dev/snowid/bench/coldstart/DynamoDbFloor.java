package dev.snowid.bench.coldstart;

import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.dynamodb.RegistryTable;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The floor of a cold start that any DynamoDB-backed Java Lambda pays: build an SDK v2 DynamoDB
 * client the ordinary way (the JDK's HTTP client, region and credentials from the environment)
 * and make one conditional UpdateItem; print the wall-clock ms at which its answer was in hand.
 * Run from the same jar as the function, so both load the same SDK classes from the same file.
 *
 * <p>Arguments: the engine's endpoint and a table with the lease table's key; {@code --prepare}
 * first creates the table (not measured); {@code --prepare-registry} creates a claim registry table instead.
 */
public final class DynamoDbFloor {

    private DynamoDbFloor() {
    }

    public static void main(String[] args) {
        URI endpoint = URI.create(args[0]);
        String table = args[1];
        if (args.length > 2 && args[2].equals("--prepare")) {
            LeaseTable.createIfMissing(endpoint, table);
            return;
        }
        if (args.length > 2 && args[2].equals("--prepare-registry")) { // cold-start.sh's registry part
            RegistryTable.createIfMissing(endpoint, table);
            return;
        }
        DynamoDbClient client = DynamoDbClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .endpointOverride(endpoint)
                .build();
        String now = Long.toString(System.currentTimeMillis());
        client.updateItem(update -> update.tableName(table)
                .key(Map.of("slot", AttributeValue.fromN("1023")))
                .conditionExpression("attribute_not_exists(#slot) OR #expiresAt < :now")
                .updateExpression("SET #expiresAt = :now")
                .expressionAttributeNames(Map.of("#slot", "slot", "#expiresAt", "expiresAt"))
                .expressionAttributeValues(Map.of(":now", AttributeValue.fromN(now))));
        long doneAt = System.currentTimeMillis();
        System.out.println("done-at " + doneAt + " cpu " + CpuTime.millis());
        System.exit(0);
    }
}
