package dev.snowid.lambda.engine;

import dev.snowid.WallClock;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import java.net.URI;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A lease table made for one test on the shared engine, with a name no other test uses.
 *
 * @param name the table's name
 * @param endpoint the engine's endpoint
 * @param client a client of the engine, shared by all tests: do not close it
 */
public record TestTable(String name, URI endpoint, DynamoDbClient client) {

    /** Client settings pointing at the engine, to adjust (timeouts, interceptors) before building a store. */
    public LeaseTableClient.Builder clientSettings() {
        return LeaseTableClient.builder().endpoint(endpoint);
    }

    /** A store on this table with the production client settings; the caller closes it. */
    public DynamoDbLeaseStore store(WallClock clock) {
        return DynamoDbLeaseStore.builder().table(name).clock(clock).client(clientSettings()).build();
    }
}
