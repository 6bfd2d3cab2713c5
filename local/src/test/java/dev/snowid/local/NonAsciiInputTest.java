package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.json.TestJson;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client that sends non-ASCII in the request line unencoded (raw UTF-8 bytes, as curl does with
 * {@code --globoff}) gets its input echoed as it sent it (never an ISO-8859-1 reading of the bytes,
 * {@code Ã©} for {@code é}); bytes that are not UTF-8 are refused as such, in JSON.
 */
@ExtendWith(DynamoDbEngine.class)
class NonAsciiInputTest {

    private static final String SECRET = "non-ascii-1cfaf88dbd98f79cc09d13de452bb508dee6910959e53b8d478084a832d3b263";

    @Test
    void rawUtf8InTheQueryAndPathIsEchoedAsSent(TestTable table) throws IOException {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            String[] answer = rawRequest(runner, "GET /ids?count=é HTTP/1.1".getBytes(StandardCharsets.UTF_8));
            assertEquals("400", answer[0], answer[1]);
            String message = TestJson.text(TestJson.parse(answer[1]), "message");
            assertTrue(message.contains("'é'"), message);

            answer = rawRequest(runner, "GET /ids/Ωñ HTTP/1.1".getBytes(StandardCharsets.UTF_8));
            assertEquals("400", answer[0], answer[1]);
            message = TestJson.text(TestJson.parse(answer[1]), "message");
            assertTrue(message.contains("'Ωñ'"), message);
        }
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedAsSuch(TestTable table) throws IOException {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            byte[] latin1 = "GET /ids?count=\u00e9 HTTP/1.1".getBytes(StandardCharsets.ISO_8859_1); // é as one byte, 0xE9
            String[] answer = rawRequest(runner, latin1);
            assertEquals("400", answer[0], answer[1]);
            assertEquals("invalid_request", TestJson.text(TestJson.parse(answer[1]), "error"), answer[1]);
            assertTrue(TestJson.text(TestJson.parse(answer[1]), "message").contains("not UTF-8"), answer[1]);
        }
    }

    private static Map<String, String> environment(TestTable table) {
        return Map.of(LocalSettings.LOCAL_PORT, "0", FunctionSettings.TABLE, table.name(),
                FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString(), LocalSettings.LOCAL_LEASE_SECRET, SECRET);
    }

    /** Sends the request line as these bytes; the status and the body of the answer. */
    private static String[] rawRequest(LocalRunner runner, byte[] requestLine) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), runner.port())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(requestLine);
            out.write(("\r\nHost: localhost:" + runner.port() + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            in.transferTo(bytes);
            String response = bytes.toString(StandardCharsets.UTF_8);
            String status = response.substring(response.indexOf(' ') + 1, response.indexOf(' ') + 4);
            return new String[] {status, response.substring(response.indexOf("\r\n\r\n") + 4)};
        }
    }
}
