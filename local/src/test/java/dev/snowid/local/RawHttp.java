package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.json.TestJson;
import dev.snowid.protocol.json.JsonValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP over a raw socket, for what no HTTP client sends: broken request lines, oversized heads,
 * bodies that never come. The socket's read timeout only keeps a broken server from hanging the
 * build; no test depends on it.
 */
final class RawHttp {

    static final int READ_TIMEOUT_MILLIS = 60_000;

    private RawHttp() {
    }

    /** Sends {@code request} on a new connection and reads one answer (its head, then as many bytes as its Content-Length says). */
    static Answer exchange(int port, byte[] request) {
        try (Socket socket = open(port)) {
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            return readAnswer(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Answer exchange(int port, String request) {
        return exchange(port, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    static Socket open(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        return socket;
    }

    /** One answer: its head, then its body by Content-Length (or until the server closes, without one). */
    static Answer readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            for (int b; !head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n") && (b = in.read()) >= 0; ) {
                head.write(b);
            }
        } catch (SocketException reset) {
            return Answer.of(head.toString(StandardCharsets.UTF_8));
        }
        Answer headOnly = Answer.of(head.toString(StandardCharsets.ISO_8859_1));
        String length = headOnly.header("Content-Length");
        String body = length == null ? readAll(in) : new String(in.readNBytes(Integer.parseInt(length)), StandardCharsets.UTF_8);
        return Answer.of(head.toString(StandardCharsets.ISO_8859_1) + body);
    }

    /** Everything the server sends until it closes (a reset after the answer counts as a close). */
    static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                bytes.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // what was read so far is the answer
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** One answer read off the wire: its status line, headers and body. */
    record Answer(String text, int status, String head, String body) {

        static Answer of(String text) {
            int headEnd = text.indexOf("\r\n\r\n");
            String head = headEnd < 0 ? text : text.substring(0, headEnd);
            String body = headEnd < 0 ? "" : text.substring(headEnd + 4);
            int status = text.startsWith("HTTP/1.1 ") && text.length() >= 12 ? Integer.parseInt(text.substring(9, 12)) : -1;
            return new Answer(text, status, head, body);
        }

        /** The value of header {@code name}, or null. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }

        /** Asserts a JSON error answer of {@code status} with the {@code error} code and a message; returns the message. */
        String assertJsonError(int status, String error, String what) {
            assertEquals(status, this.status, what + ": " + text);
            assertEquals("application/json", header("Content-Type"), what + ": " + text);
            JsonValue json = TestJson.parse(body);
            assertEquals(error, TestJson.text(json, "error"), what + ": " + text);
            String message = TestJson.text(json, "message");
            assertTrue(!message.isBlank(), what + ": " + text);
            return message;
        }
    }
}
