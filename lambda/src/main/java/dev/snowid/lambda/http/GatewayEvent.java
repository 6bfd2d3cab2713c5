package dev.snowid.lambda.http;

import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.json.JsonReader;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.protocol.json.MalformedJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads an API Gateway proxy event, payload format 2.0 (HTTP API) or 1.0 (REST API), into an
 * {@link ApiRequest}. The format is told by {@code version} and {@code requestContext.http}.
 */
public final class GatewayEvent {

    /**
     * API Gateway's events nest a few levels and Lambda takes at most 6 MB (the local runner's,
     * base64 bodies included, stay under 9 MB): room for those, not for more.
     */
    /** API Gateway's catch-all route: a request no route of the API matched; also what an event that names no route counts as. */
    public static final String DEFAULT_ROUTE_KEY = "$default";

    private static final JsonReader READER = new JsonReader(new JsonReader.Limits(64, 16 << 20, 1_000, 16 << 20));

    private GatewayEvent() {
    }

    public static ApiRequest read(byte[] event) {
        JsonValue root;
        try {
            root = READER.read(event);
        } catch (MalformedJson e) {
            throw notAnEvent("the event " + e.what());
        }
        if (root.fields().isEmpty()) {
            throw notAnEvent("the event is not a JSON object");
        }
        Optional<JsonValue> context = root.field("requestContext").filter(c -> c.fields().isPresent());
        boolean v2 = text(root, "version").map("2.0"::equals).orElse(false)
                || context.flatMap(c -> c.field("http")).flatMap(JsonValue::fields).isPresent();
        return v2 ? readV2(root, context) : readV1(root, context);
    }

    private static ApiRequest readV2(JsonValue root, Optional<JsonValue> context) {
        String method = context.flatMap(c -> c.field("http")).flatMap(h -> text(h, "method"))
                .orElseThrow(() -> notAnEvent("payload 2.0 event without requestContext.http.method"));
        String rawPath = text(root, "rawPath")
                .or(() -> context.flatMap(c -> c.field("http")).flatMap(h -> text(h, "path")))
                .orElseThrow(() -> notAnEvent("payload 2.0 event without rawPath"));
        String path = withoutStage(PercentDecoding.decodePath(rawPath), context);
        Map<String, List<String>> query = PercentDecoding.parseQuery(text(root, "rawQueryString").orElse(""));
        Map<String, String> headers = headers(root.field("headers"), Optional.empty());
        Optional<String> iamCaller = context.flatMap(c -> c.field("authorizer")).flatMap(a -> a.field("iam"))
                .flatMap(iam -> text(iam, "userArn"));
        // The route API Gateway matched: the one the function answers as (a request that reached $default is none of them).
        String routeKey = text(root, "routeKey").or(() -> context.flatMap(c -> text(c, "routeKey"))).orElse(DEFAULT_ROUTE_KEY);
        return new ApiRequest(PayloadFormat.V2, routeKey, method, path, query, headers, body(root), requestId(context), iamCaller);
    }

    private static ApiRequest readV1(JsonValue root, Optional<JsonValue> context) {
        String method = text(root, "httpMethod")
                .orElseThrow(() -> notAnEvent("neither a payload 2.0 event (requestContext.http) nor a 1.0 one (httpMethod)"));
        // REST APIs give "path" decoded and without the stage.
        String path = text(root, "path").orElseThrow(() -> notAnEvent("payload 1.0 event without path"));
        Map<String, List<String>> query = new LinkedHashMap<>();
        Optional<Map<String, JsonValue>> multi = root.field("multiValueQueryStringParameters").flatMap(JsonValue::fields);
        if (multi.isPresent()) {
            multi.get().forEach((name, values) -> {
                List<String> list = strings(values);
                values.string().ifPresent(list::add);
                query.put(name, list);
            });
        } else {
            root.field("queryStringParameters").flatMap(JsonValue::fields).ifPresent(q -> q
                    .forEach((name, value) -> query.put(name, value.string().map(List::of).orElse(List.of()))));
        }
        Map<String, String> headers = headers(root.field("headers"), root.field("multiValueHeaders"));
        // REST APIs fill identity.userArn only for callers they authorized with IAM.
        Optional<String> iamCaller = context.flatMap(c -> c.field("identity")).flatMap(identity -> text(identity, "userArn"));
        // The REST API's resource the request matched, with the method: a route key as HTTP APIs write them.
        String routeKey = text(root, "resource").map(resource -> method + " " + resource).orElse(DEFAULT_ROUTE_KEY);
        return new ApiRequest(PayloadFormat.V1, routeKey, method, path, query, headers, body(root), requestId(context), iamCaller);
    }

    /** Header names in lower case; repeated headers joined with commas, as HTTP allows. */
    private static Map<String, String> headers(Optional<JsonValue> single, Optional<JsonValue> multi) {
        Map<String, String> headers = new LinkedHashMap<>();
        single.flatMap(JsonValue::fields).ifPresent(h -> h.forEach((name, value) ->
                value.string().ifPresent(text -> headers.put(name.toLowerCase(Locale.ROOT), text))));
        multi.flatMap(JsonValue::fields).ifPresent(h -> h.forEach((name, values) -> {
            List<String> list = strings(values);
            if (!list.isEmpty()) {
                headers.put(name.toLowerCase(Locale.ROOT), String.join(",", list));
            }
        }));
        return headers;
    }

    /** The strings of an array (other items skipped); empty for anything but an array. */
    private static List<String> strings(JsonValue values) {
        List<String> list = new ArrayList<>();
        values.items().ifPresent(items -> items.forEach(item -> item.string().ifPresent(list::add)));
        return list;
    }

    private static byte[] body(JsonValue root) {
        Optional<String> body = text(root, "body");
        if (body.isEmpty()) {
            return new byte[0];
        }
        boolean base64 = root.field("isBase64Encoded").flatMap(JsonValue::bool).orElse(false);
        if (!base64) {
            return body.get().getBytes(StandardCharsets.UTF_8);
        }
        try {
            return Base64.getMimeDecoder().decode(body.get());
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(ErrorCode.INVALID_BODY, "the request body is marked base64-encoded but is not valid base64");
        }
    }

    /** HTTP APIs put a named stage in front of the path ({@code /prod/ids}); {@code $default} adds none. */
    private static String withoutStage(String path, Optional<JsonValue> context) {
        Optional<String> stage = context.flatMap(c -> text(c, "stage")).filter(s -> !s.equals("$default") && !s.isEmpty());
        if (stage.isPresent()) {
            String prefix = "/" + stage.get();
            if (path.equals(prefix)) {
                return "/";
            }
            if (path.startsWith(prefix + "/")) {
                return path.substring(prefix.length());
            }
        }
        return path;
    }

    private static String requestId(Optional<JsonValue> context) {
        return context.flatMap(c -> text(c, "requestId")).orElse(null);
    }

    private static Optional<String> text(JsonValue node, String field) {
        return node.field(field).flatMap(JsonValue::string);
    }

    private static ApiError notAnEvent(String why) {
        return ApiError.badRequest(ErrorCode.INVALID_EVENT, why
                + "; the function expects an API Gateway proxy event, payload format 2.0 (HTTP API) or 1.0 (REST API)");
    }
}
