package dev.snowid.testing.engine;

import java.net.URI;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A lease table made for one test on an engine, with a name no other test uses, laid out as
 * {@link LeaseTableLayout} says.
 *
 * @param name the table's name
 * @param endpoint the engine's endpoint
 * @param client a client of the engine, shared by all tests: do not close it
 */
public record TestTable(String name, URI endpoint, DynamoDbClient client) {
}
