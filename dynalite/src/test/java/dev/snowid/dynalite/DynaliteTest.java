package dev.snowid.dynalite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

class DynaliteTest {

    @Test
    void startsOnALoopbackPortServesDynamoDbAndIsGoneAfterClose() {
        URI endpoint;
        try (Dynalite dynalite = Dynalite.start()) {
            endpoint = dynalite.endpoint();
            assertEquals("127.0.0.1", endpoint.getHost());
            try (DynamoDbClient client = EngineClient.of(endpoint)) {
                client.createTable(t -> t.tableName("dynalite-smoke").billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(a -> a.attributeName("k").attributeType(ScalarAttributeType.S))
                        .keySchema(k -> k.attributeName("k").keyType(KeyType.HASH)));
                assertTrue(client.listTables().tableNames().contains("dynalite-smoke"));
            }
        }
        assertFalse(accepts(endpoint), "the port is closed after close()");
    }

    @Test
    void aFolderWithoutNodeModulesSaysHowToInstallDynalite(@TempDir Path empty) throws IOException {
        Files.writeString(empty.resolve("package.json"), "{\"dependencies\":{\"dynalite\":\"4.0.0\"}}");

        IllegalStateException missing = assertThrows(IllegalStateException.class, () -> Dynalite.start(empty));

        assertTrue(missing.getMessage().contains("npm ci --prefix dynalite")
                && missing.getMessage().contains("Node.js"), missing.getMessage());
    }

    @Test
    void aWrongDirectoryPropertyIsNamedInTheError(@TempDir Path empty) {
        String previous = System.getProperty(DynaliteInstall.DIR_PROPERTY);
        System.setProperty(DynaliteInstall.DIR_PROPERTY, empty.toString());
        try {
            IllegalStateException wrong = assertThrows(IllegalStateException.class,
                    () -> DynaliteInstall.find(Map.of(), System.out));
            assertTrue(wrong.getMessage().contains(DynaliteInstall.DIR_PROPERTY), wrong.getMessage());
        } finally {
            if (previous == null) {
                System.clearProperty(DynaliteInstall.DIR_PROPERTY);
            } else {
                System.setProperty(DynaliteInstall.DIR_PROPERTY, previous);
            }
        }
    }

    private static boolean accepts(URI endpoint) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()), 500);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
