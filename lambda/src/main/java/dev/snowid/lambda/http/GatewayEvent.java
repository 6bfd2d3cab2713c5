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
        JsonValue context = object(root, "requestContext");
        boolean v2 = "2.0".equals(text(root, "version")) || object(context, "http") != null;
        return v2 ? readV2(root, context) : readV1(root, context);
    }

    private static ApiRequest readV2(JsonValue root, JsonValue context) {
        String method = text(context, "http", "method");
        if (method == null) {
            throw notAnEvent("payload 2.0 event without requestContext.http.method");
        }
        String rawPath = firstOf(text(root, "rawPath"), text(context, "http", "path"));
        if (rawPath == null) {
            throw notAnEvent("payload 2.0 event without rawPath");
        }
        String path = withoutStage(PercentDecoding.decodePath(rawPath), context);
        Map<String, List<String>> query = PercentDecoding.parseQuery(firstOf(text(root, "rawQueryString"), ""));
        Map<String, String> headers = headers(object(root, "headers"), null);
        String iamCaller = text(context, "authorizer", "iam", "userArn");
        // The route API Gateway matched: the one the function answers as (a request that reached $default is none of them).
        String routeKey = firstOf(text(root, "routeKey"), firstOf(text(context, "routeKey"), DEFAULT_ROUTE_KEY));
        return new ApiRequest(PayloadFormat.V2, routeKey, method, path, query, headers, body(root), text(context, "requestId"),
                Optional.ofNullable(iamCaller));
    }

    private static ApiRequest readV1(JsonValue root, JsonValue context) {
        String method = text(root, "httpMethod");
        if (method == null) {
            throw notAnEvent("neither a payload 2.0 event (requestContext.http) nor a 1.0 one (httpMethod)");
        }
        // REST APIs give "path" decoded and without the stage.
        String path = text(root, "path");
        if (path == null) {
            throw notAnEvent("payload 1.0 event without path");
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        JsonValue multi = object(root, "multiValueQueryStringParameters");
        if (multi != null) {
            for (Map.Entry<String, JsonValue> parameter : multi.fields().get().entrySet()) {
                List<String> values = strings(parameter.getValue());
                addIfText(values, parameter.getValue());
                query.put(parameter.getKey(), values);
            }
        } else {
            for (Map.Entry<String, JsonValue> parameter : entries(object(root, "queryStringParameters"))) {
                String value = parameter.getValue().string().orElse(null);
                query.put(parameter.getKey(), value == null ? List.of() : List.of(value));
            }
        }
        Map<String, String> headers = headers(object(root, "headers"), object(root, "multiValueHeaders"));
        // REST APIs fill identity.userArn only for callers they authorized with IAM.
        String iamCaller = text(context, "identity", "userArn");
        // The REST API's resource the request matched, with the method: a route key as HTTP APIs write them.
        String resource = text(root, "resource");
        String routeKey = resource == null ? DEFAULT_ROUTE_KEY : method + " " + resource;
        return new ApiRequest(PayloadFormat.V1, routeKey, method, path, query, headers, body(root), text(context, "requestId"),
                Optional.ofNullable(iamCaller));
    }

    /** Header names in lower case; repeated headers joined with commas, as HTTP allows. */
    private static Map<String, String> headers(JsonValue single, JsonValue multi) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> header : entries(single)) {
            String value = header.getValue().string().orElse(null);
            if (value != null) {
                headers.put(header.getKey().toLowerCase(Locale.ROOT), value);
            }
        }
        for (Map.Entry<String, JsonValue> header : entries(multi)) {
            List<String> values = strings(header.getValue());
            if (!values.isEmpty()) {
                headers.put(header.getKey().toLowerCase(Locale.ROOT), String.join(",", values));
            }
        }
        return headers;
    }

    /** The strings of an array (other items skipped); empty for anything but an array. */
    private static List<String> strings(JsonValue values) {
        List<String> list = new ArrayList<>();
        for (JsonValue item : values.items().orElse(List.of())) {
            addIfText(list, item);
        }
        return list;
    }

    private static void addIfText(List<String> list, JsonValue value) {
        String text = value.string().orElse(null);
        if (text != null) {
            list.add(text);
        }
    }

    private static byte[] body(JsonValue root) {
        String body = text(root, "body");
        if (body == null) {
            return new byte[0];
        }
        JsonValue base64 = root.field("isBase64Encoded").orElse(null);
        if (base64 == null || !base64.bool().orElse(false)) {
            return body.getBytes(StandardCharsets.UTF_8);
        }
        try {
            return Base64.getMimeDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(ErrorCode.INVALID_BODY, "the request body is marked base64-encoded but is not valid base64");
        }
    }

    /** HTTP APIs put a named stage in front of the path ({@code /prod/ids}); {@code $default} adds none. */
    private static String withoutStage(String path, JsonValue context) {
        String stage = text(context, "stage");
        if (stage != null && !stage.equals("$default") && !stage.isEmpty()) {
            String prefix = "/" + stage;
            if (path.equals(prefix)) {
                return "/";
            }
            if (path.startsWith(prefix + "/")) {
                return path.substring(prefix.length());
            }
        }
        return path;
    }

    // The event is walked with plain null checks, not Optional chains: every lambda costs the cold
    // start a class of its own at the first request, and this is the first code every request runs.

    /** The object at {@code path} under {@code node} (each step an object's field), or null. */
    private static JsonValue object(JsonValue node, String... path) {
        JsonValue at = at(node, path);
        return at != null && at.fields().isPresent() ? at : null;
    }

    /** The string at {@code path} under {@code node}, or null (absent, or not a string). */
    private static String text(JsonValue node, String... path) {
        JsonValue at = at(node, path);
        return at == null ? null : at.string().orElse(null);
    }

    private static JsonValue at(JsonValue node, String... path) {
        JsonValue at = node;
        for (String field : path) {
            if (at == null) {
                return null;
            }
            at = at.field(field).orElse(null);
        }
        return at;
    }

    private static Iterable<Map.Entry<String, JsonValue>> entries(JsonValue object) {
        return object == null ? List.of() : object.fields().get().entrySet();
    }

    private static String firstOf(String text, String otherwise) {
        return text != null ? text : otherwise;
    }

    private static ApiError notAnEvent(String why) {
        return ApiError.badRequest(ErrorCode.INVALID_EVENT, why
                + "; the function expects an API Gateway proxy event, payload format 2.0 (HTTP API) or 1.0 (REST API)");
    }
}
