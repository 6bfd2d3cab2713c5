package dev.snowid.dynalite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
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

    /** Every engine: no web page (an Origin, a preflight) and no rebound name; never a CORS header. */
    @Test
    void anEngineAnswersNoWebPageAndNoNameButLoopback() throws IOException {
        try (Dynalite dynalite = Dynalite.start()) {
            int port = dynalite.endpoint().getPort();
            String list = "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
                    + "Authorization: AWS4-HMAC-SHA256 Credential=x/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0\r\n"
                    + "X-Amz-Date: 20250101T000000Z\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
            for (String refused : new String[] {
                    "POST / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: https://evil.example\r\n" + list,
                    "OPTIONS / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: https://evil.example\r\nConnection: close\r\n\r\n",
                    "POST / HTTP/1.1\r\nHost: 127.0.0.1.nip.io:" + port + "\r\n" + list}) {
                String answer = exchange(port, refused);
                assertTrue(answer.startsWith("HTTP/1.1 403"), answer);
                assertFalse(answer.toLowerCase(Locale.ROOT).contains("access-control-"), answer);
            }
            String answer = exchange(port, "POST / HTTP/1.1\r\nHost: localhost:" + port + "\r\n" + list);
            assertTrue(answer.startsWith("HTTP/1.1 200") && answer.contains("TableNames"), answer);
        }
    }

    /** An engine on disk (the local runner's) answers only requests that show its credential. */
    @Test
    void anEngineOnDiskAnswersOnlyItsCredential(@TempDir Path folder) {
        EngineCredential credential = EngineCredential.create(folder);
        Path install = DynaliteInstall.find(Map.of(), System.out);
        try (Dynalite dynalite = Dynalite.onDisk(install, folder, folder.resolve("tables"), Dynalite.freeLoopbackPort(),
                folder.resolve("dynalite.log"), credential)) {
            try (DynamoDbClient stranger = EngineClient.of(dynalite.endpoint())) {
                DynamoDbException refused = assertThrows(DynamoDbException.class, stranger::listTables);
                assertEquals(403, refused.statusCode(), refused.getMessage());
            }
            try (DynamoDbClient owner = EngineClient.of(dynalite.endpoint(), credential)) {
                assertEquals(0, owner.listTables().tableNames().size());
            }
        }
        assertFalse(credential.toString().contains(credential.value()), "the credential is never printed");
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

    private static String exchange(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
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
