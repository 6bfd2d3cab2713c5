package dev.snowid.local.http;

import com.sun.net.httpserver.Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An answer as bytes on the wire: status line, headers (the framing ones are the server's), body.
 * Written as they are rather than through Netty's encoder: a short fixed form, byte for byte what
 * the runner always sent, without Netty's header objects on the path every refused flood request takes.
 */
final class Responses {

    private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(200, "OK"), Map.entry(201, "Created"),
            Map.entry(204, "No Content"), Map.entry(304, "Not Modified"), Map.entry(400, "Bad Request"),
            Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"), Map.entry(408, "Request Timeout"), Map.entry(409, "Conflict"),
            Map.entry(413, "Content Too Large"), Map.entry(414, "URI Too Long"), Map.entry(417, "Expectation Failed"),
            Map.entry(421, "Misdirected Request"), Map.entry(431, "Request Header Fields Too Large"),
            Map.entry(500, "Internal Server Error"), Map.entry(503, "Service Unavailable"));
    /** Set by the server alone: a handler's own would contradict the body it gets. */
    private static final List<String> FRAMING = List.of("content-length", "transfer-encoding", "connection", "date");
    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private Responses() {
    }

    /** The answer {@code status} with these headers and body; none for HEAD, 204 and 304. */
    static byte[] of(int status, Headers headers, byte[] body, boolean head, boolean close) {
        boolean noBody = head || status == 204 || status == 304 || status < 200;
        StringBuilder text = new StringBuilder(256).append("HTTP/1.1 ").append(status).append(' ')
                .append(REASONS.getOrDefault(status, "Status")).append("\r\n");
        headers.forEach((name, values) -> {
            if (!FRAMING.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> text.append(canonical(name)).append(": ").append(value).append("\r\n"));
            }
        });
        text.append("Date: ").append(HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC))).append("\r\n");
        if (status != 204 && status != 304 && status >= 200) {
            text.append("Content-Length: ").append(body.length).append("\r\n");
        }
        if (close) {
            text.append("Connection: close\r\n");
        }
        text.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + body.length);
        out.writeBytes(text.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (!noBody) {
            out.writeBytes(body);
        }
        return out.toByteArray();
    }

    /** {@code content-type} as {@code Content-Type}: the JDK's {@code Headers} keep only the first letter's case. */
    private static String canonical(String name) {
        StringBuilder out = new StringBuilder(name.length());
        boolean upper = true;
        for (char c : name.toCharArray()) {
            out.append(upper ? Character.toUpperCase(c) : c);
            upper = c == '-';
        }
        return out.toString();
    }

    /** The server's own refusal: JSON {@code {"error","message"}}; the connection closes after it. */
    static byte[] refusal(Refusal refusal, boolean head) {
        Headers headers = new Headers();
        headers.set("Content-Type", "application/json");
        headers.set("Cache-Control", "no-store");
        return of(refusal.status(), headers, Refusal.body(refusal.error(), refusal.getMessage()), head, true);
    }
}
