package dev.snowid.local.http;

import com.sun.net.httpserver.Headers;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** An answer for Netty's encoder: status line, headers (the framing ones are the server's), body. */
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

    private Responses() {
    }

    /** The answer {@code status} with these headers and body; none for HEAD, 204 and 304. */
    static FullHttpResponse of(int status, Headers headers, byte[] body, boolean head, boolean close) {
        boolean noBody = head || status == 204 || status == 304 || status < 200;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                new HttpResponseStatus(status, REASONS.getOrDefault(status, "Status")),
                noBody ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        HttpHeaders out = response.headers();
        headers.forEach((name, values) -> {
            if (!FRAMING.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> out.add(canonical(name), value));
            }
        });
        out.add("Date", HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC)));
        if (status != 204 && status != 304 && status >= 200) {
            out.add("Content-Length", body.length);
        }
        if (close) {
            out.add("Connection", "close");
        }
        return response;
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
    static FullHttpResponse refusal(Refusal refusal, boolean head) {
        Headers headers = new Headers();
        headers.set("Content-Type", "application/json");
        headers.set("Cache-Control", "no-store");
        return of(refusal.status(), headers, Refusal.body(refusal.error(), refusal.getMessage()), head, true);
    }

    /** The interim answer to {@code Expect: 100-continue}: send the body. */
    static FullHttpResponse proceed() {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER);
    }
}
