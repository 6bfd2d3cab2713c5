package dev.snowid.lambda;

import dev.snowid.client.wire.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * Reads an API Gateway proxy event, payload format 2.0 (HTTP API) or 1.0 (REST API), into an
 * {@link ApiRequest}. The format is told by {@code version} and {@code requestContext.http}.
 */
final class GatewayEvent {

    private GatewayEvent() {
    }

    static ApiRequest read(byte[] event) {
        JsonNode root;
        try {
            root = JsonNode.parser().parse(event);
        } catch (RuntimeException e) {
            throw notAnEvent("the event is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw notAnEvent("the event is not a JSON object");
        }
        Optional<JsonNode> context = root.field("requestContext").filter(JsonNode::isObject);
        boolean v2 = text(root, "version").map("2.0"::equals).orElse(false)
                || context.flatMap(c -> c.field("http")).filter(JsonNode::isObject).isPresent();
        return v2 ? readV2(root, context) : readV1(root, context);
    }

    private static ApiRequest readV2(JsonNode root, Optional<JsonNode> context) {
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
        return new ApiRequest(PayloadFormat.V2, method.toUpperCase(Locale.ROOT), path, query, headers, body(root),
                requestId(context), iamCaller);
    }

    private static ApiRequest readV1(JsonNode root, Optional<JsonNode> context) {
        String method = text(root, "httpMethod")
                .orElseThrow(() -> notAnEvent("neither a payload 2.0 event (requestContext.http) nor a 1.0 one (httpMethod)"));
        // REST APIs give "path" decoded and without the stage.
        String path = text(root, "path").orElseThrow(() -> notAnEvent("payload 1.0 event without path"));
        Map<String, List<String>> query = new LinkedHashMap<>();
        Optional<JsonNode> multi = root.field("multiValueQueryStringParameters").filter(JsonNode::isObject);
        if (multi.isPresent()) {
            multi.get().asObject().forEach((name, values) -> {
                List<String> list = new ArrayList<>();
                if (values.isArray()) {
                    values.asArray().stream().filter(JsonNode::isString).forEach(v -> list.add(v.asString()));
                } else if (values.isString()) {
                    list.add(values.asString());
                }
                query.put(name, list);
            });
        } else {
            root.field("queryStringParameters").filter(JsonNode::isObject).ifPresent(q -> q.asObject()
                    .forEach((name, value) -> query.put(name, value.isString() ? List.of(value.asString()) : List.of())));
        }
        Map<String, String> headers = headers(root.field("headers"), root.field("multiValueHeaders"));
        // REST APIs fill identity.userArn only for callers they authorized with IAM.
        Optional<String> iamCaller = context.flatMap(c -> c.field("identity")).flatMap(identity -> text(identity, "userArn"));
        return new ApiRequest(PayloadFormat.V1, method.toUpperCase(Locale.ROOT), path, query, headers, body(root),
                requestId(context), iamCaller);
    }

    /** Header names in lower case; repeated headers joined with commas, as HTTP allows. */
    private static Map<String, String> headers(Optional<JsonNode> single, Optional<JsonNode> multi) {
        Map<String, String> headers = new LinkedHashMap<>();
        single.filter(JsonNode::isObject).ifPresent(h -> h.asObject().forEach((name, value) -> {
            if (value.isString()) {
                headers.put(name.toLowerCase(Locale.ROOT), value.asString());
            }
        }));
        multi.filter(JsonNode::isObject).ifPresent(h -> h.asObject().forEach((name, values) -> {
            if (values.isArray()) {
                List<String> list = new ArrayList<>();
                values.asArray().stream().filter(JsonNode::isString).forEach(v -> list.add(v.asString()));
                if (!list.isEmpty()) {
                    headers.put(name.toLowerCase(Locale.ROOT), String.join(",", list));
                }
            }
        }));
        return headers;
    }

    private static byte[] body(JsonNode root) {
        Optional<String> body = text(root, "body");
        if (body.isEmpty()) {
            return new byte[0];
        }
        boolean base64 = root.field("isBase64Encoded").filter(JsonNode::isBoolean).map(JsonNode::asBoolean).orElse(false);
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
    private static String withoutStage(String path, Optional<JsonNode> context) {
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

    private static String requestId(Optional<JsonNode> context) {
        return context.flatMap(c -> text(c, "requestId")).orElse(null);
    }

    private static Optional<String> text(JsonNode node, String field) {
        return node.field(field).filter(JsonNode::isString).map(JsonNode::asString);
    }

    private static ApiError notAnEvent(String why) {
        return ApiError.badRequest(ErrorCode.INVALID_EVENT, why
                + "; the function expects an API Gateway proxy event, payload format 2.0 (HTTP API) or 1.0 (REST API)");
    }
}
