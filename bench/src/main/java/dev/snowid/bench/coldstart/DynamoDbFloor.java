package dev.snowid.bench.coldstart;

import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
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
 * first creates the table (not measured); {@code --prepare-registry} creates a claim registry table instead;
 * {@code --prepare-expired <count>} leaves slots 0 to count - 1 leased and expired, never released.
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
        if (args.length > 3 && args[2].equals("--prepare-expired")) { // cold-start.sh's ric-churned part
            leaseAndExpire(client, table, Integer.parseInt(args[3]));
            return;
        }
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

    /** Slots 0 to count - 1 as holders leave them that never release: an owner, and an expiry long past. */
    private static void leaseAndExpire(DynamoDbClient client, String table, int count) {
        for (int slot = 0; slot < count; slot++) {
            String key = Integer.toString(slot);
            client.putItem(put -> put.tableName(table).item(Map.of(
                    LeaseTableSchema.SLOT, AttributeValue.fromN(key),
                    LeaseTableSchema.OWNER, AttributeValue.fromS("0".repeat(31) + "1"),
                    LeaseTableSchema.FENCE, AttributeValue.fromN("1"),
                    LeaseTableSchema.FLOOR, AttributeValue.fromN("0"),
                    LeaseTableSchema.EXPIRES_AT, AttributeValue.fromN("1000"),
                    LeaseTableSchema.HOLDER, AttributeValue.fromS("gone"))));
        }
    }
}
