package dev.snowid.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.http.HttpApiEvent;
import dev.snowid.protocol.json.JsonReader;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.protocol.json.MalformedJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Plays API Gateway (HTTP API, payload format 2.0) in front of the handler: turns each HTTP
 * request into the event JSON API Gateway would send, the route key it would match included
 * ({@link Endpoint#routeKeyOf}), invokes the very same handler, and writes its proxy response back
 * as HTTP.
 */
final class GatewayBridge implements HttpHandler {

    /** Lambda's limit for a synchronous invocation's payload: the runner's server refuses larger bodies with 413. */
    static final int MAX_EVENT_BYTES = 6 * 1024 * 1024;

    /** The handler's own answers: shallow, numbers are status codes, at most Lambda's 6 MB response. */
    private static final JsonReader RESPONSES = new JsonReader(new JsonReader.Limits(8, 16 << 20, 100, 16 << 20));

    private static final DateTimeFormatter REQUEST_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    private final RequestStreamHandler handler;
    /** Runs after the handler answered and before the answer is sent. */
    private final Runnable beforeAnswering;

    GatewayBridge(RequestStreamHandler handler) {
        this(handler, () -> { });
    }

    GatewayBridge(RequestStreamHandler handler, Runnable beforeAnswering) {
        this.handler = handler;
        this.beforeAnswering = beforeAnswering;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            // In memory already, and at most MAX_EVENT_BYTES: the runner's server read it in full before this (LocalHttpServer).
            byte[] body = exchange.getRequestBody().readAllBytes();
            String requestId = UUID.randomUUID().toString();
            byte[] event = event(exchange, body, requestId).getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream response = new ByteArrayOutputStream(1024);
            synchronized (handler) { // bodies are read in parallel; the handler takes one request at a time, as one Lambda environment
                handler.handleRequest(new ByteArrayInputStream(event), response, new LocalContext(requestId));
            }
            beforeAnswering.run();
            writeProxyResponse(exchange, response.toByteArray());
        } catch (RuntimeException e) {
            // The handler answers every request itself; this is only for a broken bridge.
            e.printStackTrace();
            send(exchange, 500, Map.of("Content-Type", "application/json"),
                    "{\"error\":\"internal\",\"message\":\"the local runner failed to pass the request on\"}".getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The payload 2.0 event for this request, as an HTTP API with the $default stage would send it. */
    static String event(HttpExchange exchange, byte[] body, String requestId) {
        String rawPath = RequestTarget.rawPath(exchange.getRequestURI());
        String rawQuery = RequestTarget.rawQuery(exchange.getRequestURI());
        Map<String, String> headers = new LinkedHashMap<>();
        List<String> cookies = new ArrayList<>();
        exchange.getRequestHeaders().forEach((name, values) -> {
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.equals("cookie")) {
                // HTTP APIs move cookies out of the headers into their own list.
                values.forEach(v -> List.of(v.split(";\\s*")).forEach(cookies::add));
            } else {
                headers.put(lower, String.join(",", values));
            }
        });
        InetSocketAddress remote = exchange.getRemoteAddress();
        long now = System.currentTimeMillis();
        String path = rawPath == null ? "/" : rawPath;
        HttpApiEvent event = HttpApiEvent.request(exchange.getRequestMethod(), path)
                .routeKey(Endpoint.routeKeyOf(exchange.getRequestMethod(), path)) // as the gateway would match it
                .rawQuery(rawQuery)
                .cookies(cookies)
                .queryParameters(queryParameters(rawQuery))
                .api("000000000000", "local", "localhost", "localhost")
                .protocol(exchange.getProtocol())
                .sourceIp(remote == null ? "127.0.0.1" : remote.getAddress().getHostAddress())
                .requestId(requestId)
                .time(ZonedDateTime.now(ZoneOffset.UTC).format(REQUEST_TIME), now);
        headers.forEach(event::header);
        if (body.length > 0) {
            String text = textOrNull(body, headers.get("content-type"));
            event.body(text != null ? text : Base64.getEncoder().encodeToString(body), text == null);
        }
        return event.json();
    }

    /** Decoded parameters, repeated ones joined with commas: what API Gateway puts in queryStringParameters. */
    private static Map<String, String> queryParameters(String rawQuery) {
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery.isEmpty()) {
            return query;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            try {
                String name = java.net.URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                query.merge(name, value, (a, b) -> a + "," + b);
            } catch (IllegalArgumentException broken) {
                // Left out here; the handler reads rawQueryString and answers 400 itself.
            }
        }
        return query;
    }

    /** The body as text when API Gateway would pass it as text (a textual or missing type, valid UTF-8); else null. */
    private static String textOrNull(byte[] body, String contentType) {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        boolean textual = type.isEmpty() || type.startsWith("text/") || type.contains("json") || type.contains("xml")
                || type.startsWith("application/x-www-form-urlencoded");
        if (!textual) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static void writeProxyResponse(HttpExchange exchange, byte[] proxyResponse) throws IOException {
        JsonValue response;
        try {
            response = RESPONSES.read(proxyResponse);
        } catch (MalformedJson e) {
            throw new IllegalStateException("the handler's proxy response " + e.what());
        }
        int status = Integer.parseInt(response.field("statusCode").flatMap(JsonValue::number).orElse("500"));
        Map<String, String> headers = new LinkedHashMap<>();
        response.field("headers").flatMap(JsonValue::fields).ifPresent(h -> h.forEach((name, value) ->
                value.string().ifPresent(text -> headers.put(name, text))));
        String text = response.field("body").flatMap(JsonValue::string).orElse("");
        boolean base64 = response.field("isBase64Encoded").flatMap(JsonValue::bool).orElse(false);
        send(exchange, status, headers, base64 ? Base64.getDecoder().decode(text) : text.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, Map<String, String> headers, byte[] body) throws IOException {
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        boolean noBody = status == 204 || status == 304 || exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, noBody || body.length == 0 ? -1 : body.length);
        if (!noBody && body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
