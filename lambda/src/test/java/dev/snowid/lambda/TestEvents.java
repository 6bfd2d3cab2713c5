package dev.snowid.lambda;

import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.http.HttpApiEvent;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.protocol.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * API Gateway proxy events of both payload formats, shaped as API Gateway sends them (the
 * fixtures in {@code src/test/resources/events} are verbatim examples of each).
 */
final class TestEvents {

    private TestEvents() {
    }

    /** One request, to be written in either format. */
    static final class Request {
        final String method;
        final String path;
        /** Raw (percent-encoded) query string, as the client sent it. */
        String rawQuery = "";
        final Map<String, String> headers = new LinkedHashMap<>();
        byte[] body;
        boolean base64;
        /** Sent as the body with isBase64Encoded=true, as is: for broken base64. */
        String rawBase64;
        /** A caller ARN in the request context, where API Gateway puts the IAM caller it verified; null for none. */
        String iamCaller;
        /** The route key the event names; null: the one the gateway would match. */
        String routeKey;

        Request(String method, String path) {
            this.method = method;
            this.path = path;
        }

        Request query(String rawQuery) {
            this.rawQuery = rawQuery;
            return this;
        }

        /** Names this route key in the event, whatever the gateway would match: as anyone invoking the function directly can. */
        Request routeKey(String key) {
            this.routeKey = key;
            return this;
        }

        Request header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        Request bearer(String secret) {
            return header("Authorization", "Bearer " + secret);
        }

        /** Writes an IAM caller identity into the request context, as API Gateway would, or as anyone invoking the function can. */
        Request iamCaller(String arn) {
            this.iamCaller = arn;
            return this;
        }

        Request body(String text) {
            this.body = text.getBytes(StandardCharsets.UTF_8);
            return header("Content-Type", "application/json");
        }

        Request brokenBase64Body(String notBase64) {
            this.rawBase64 = notBase64;
            this.body = new byte[0];
            return this;
        }

        Request base64Body(byte[] bytes) {
            this.body = bytes;
            this.base64 = true;
            return header("Content-Type", "application/octet-stream");
        }

        String in(PayloadFormat format) {
            return format == PayloadFormat.V2 ? v2() : v1();
        }

        /** HTTP API, payload 2.0, $default stage: raw path and query, lower-case headers, the route key the gateway would match. */
        String v2() {
            HttpApiEvent event = HttpApiEvent.request(method, path).routeKey(routeKey()).rawQuery(rawQuery)
                    .api("123456789012", "abc123", "abc123.execute-api.eu-west-1.amazonaws.com", null)
                    .sourceIp("203.0.113.7").userAgent("snowid-test").requestId(UUID.randomUUID().toString())
                    .time("10/Mar/2020:05:16:23 +0000", 1583817383220L);
            Map<String, String> lower = new LinkedHashMap<>();
            headers.forEach((name, value) -> lower.merge(name.toLowerCase(), value, (a, b) -> a + "," + b));
            lower.forEach(event::header);
            Map<String, String> joined = new LinkedHashMap<>();
            decodedQuery().forEach((name, values) -> joined.put(name, String.join(",", values)));
            event.queryParameters(joined);
            if (iamCaller != null) {
                event.iamCaller("123456789012", iamCaller);
            }
            if (rawBase64 != null) {
                event.body(rawBase64, true);
            } else if (body == null) {
                event.body(null, false);
            } else if (base64) {
                event.body(Base64.getEncoder().encodeToString(body), true);
            } else {
                event.body(new String(body, StandardCharsets.UTF_8), false);
            }
            return event.json();
        }

        /** The route the gateway would match (unless set: a test may write any), else $default. */
        String routeKey() {
            return routeKey != null ? routeKey : Endpoint.routeKeyOf(method, path);
        }

        /**
         * REST API proxy, payload 1.0: decoded path and query, headers as sent plus their multi-value
         * twins; the resource the request matched, else the API's catch-all {@code /{proxy+}}.
         */
        String v1() {
            String matched = routeKey();
            String resource = matched.startsWith(method + " ") ? matched.substring(method.length() + 1) : "/{proxy+}";
            JsonWriter event = new JsonWriter().field("resource", resource).field("path", PercentDecodingForTests.path(path))
                    .field("httpMethod", method).stringMap("headers", headers);
            JsonWriter multiHeaders = new JsonWriter();
            headers.forEach((name, value) -> multiHeaders.stringArray(name, List.of(value)));
            event.rawField("multiValueHeaders", multiHeaders.end());
            Map<String, List<String>> query = decodedQuery();
            if (query.isEmpty()) {
                event.rawField("queryStringParameters", "null").rawField("multiValueQueryStringParameters", "null");
            } else {
                Map<String, String> last = new LinkedHashMap<>();
                JsonWriter multi = new JsonWriter();
                query.forEach((name, values) -> {
                    last.put(name, values.get(values.size() - 1));
                    multi.stringArray(name, values);
                });
                event.stringMap("queryStringParameters", last).rawField("multiValueQueryStringParameters", multi.end());
            }
            JsonWriter context = new JsonWriter().field("resourcePath", resource).field("httpMethod", method)
                    .field("path", "/Prod" + path).field("stage", "Prod").field("accountId", "123456789012")
                    .field("requestId", UUID.randomUUID().toString()).field("apiId", "70ixmpl4fl")
                    .rawField("identity", iamCaller == null ? new JsonWriter().field("sourceIp", "203.0.113.7").end()
                            : new JsonWriter().field("sourceIp", "203.0.113.7").field("userArn", iamCaller).end());
            event.rawField("requestContext", context.end());
            bodyFields(event);
            return event.end();
        }

        private void bodyFields(JsonWriter event) {
            if (rawBase64 != null) {
                event.field("body", rawBase64).field("isBase64Encoded", true);
            } else if (body == null) {
                event.rawField("body", "null").field("isBase64Encoded", false);
            } else if (base64) {
                event.field("body", Base64.getEncoder().encodeToString(body)).field("isBase64Encoded", true);
            } else {
                event.field("body", new String(body, StandardCharsets.UTF_8)).field("isBase64Encoded", false);
            }
        }

        private Map<String, List<String>> decodedQuery() {
            Map<String, List<String>> query = new LinkedHashMap<>();
            if (rawQuery.isEmpty()) {
                return query;
            }
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = PercentDecodingForTests.query(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : PercentDecodingForTests.query(pair.substring(eq + 1));
                query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            }
            return query;
        }

        @Override
        public String toString() {
            return method + " " + path + (rawQuery.isEmpty() ? "" : "?" + rawQuery)
                    + (body == null ? "" : " body=" + shortened(new String(body, StandardCharsets.UTF_8)))
                    + (headers.isEmpty() ? "" : " " + headers);
        }

        /** Test names and failure messages stay readable for multi-megabyte bodies. */
        private static String shortened(String text) {
            return text.length() <= 200 ? text : text.substring(0, 200) + "… (" + text.length() + " characters)";
        }
    }

    static Request get(String path) {
        return new Request("GET", path);
    }

    static Request request(String method, String path) {
        return new Request(method, path);
    }
}
