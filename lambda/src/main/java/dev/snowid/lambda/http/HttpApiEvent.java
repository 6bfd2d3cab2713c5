package dev.snowid.lambda.http;

import dev.snowid.protocol.json.JsonWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds an API Gateway HTTP API event (payload 2.0, {@code $default} stage) as API Gateway sends
 * it: the one place such an event is written, for SnapStart priming, the local runner's bridge
 * from a real HTTP request, the tests and the benchmarks. Unset parts are left out as API Gateway
 * leaves them out. The route key is the one the gateway matched ({@code Endpoint.routeKeyOf}
 * plays its matching); unset, the request reached {@value GatewayEvent#DEFAULT_ROUTE_KEY}.
 */
public final class HttpApiEvent {

    private final String method;
    private final String rawPath;
    private String routeKey = GatewayEvent.DEFAULT_ROUTE_KEY;
    private String rawQuery = "";
    private final Map<String, String> headers = new LinkedHashMap<>();
    private List<String> cookies = List.of();
    private Map<String, String> queryParameters = Map.of();
    private String accountId;
    private String apiId;
    private String domainName;
    private String domainPrefix;
    private String protocol = "HTTP/1.1";
    private String sourceIp = "127.0.0.1";
    private String userAgent;
    private String requestId = "none";
    private String time;
    private long timeEpoch;
    private String iamCaller;
    private boolean hasBody;
    private String body;
    private boolean base64;

    private HttpApiEvent(String method, String rawPath) {
        this.method = method;
        this.rawPath = rawPath;
    }

    /** @param rawPath the path as sent, percent-encoded */
    public static HttpApiEvent request(String method, String rawPath) {
        return new HttpApiEvent(method, rawPath);
    }

    /** The route the gateway matched, e.g. {@code GET /ids/{id}}; by default {@value GatewayEvent#DEFAULT_ROUTE_KEY}. */
    public HttpApiEvent routeKey(String routeKey) {
        this.routeKey = routeKey;
        return this;
    }

    /** The raw (percent-encoded) query string, without {@code ?}. */
    public HttpApiEvent rawQuery(String rawQuery) {
        this.rawQuery = rawQuery;
        return this;
    }

    /** A header, named in lower case as HTTP APIs pass them; repeated ones joined with commas. */
    public HttpApiEvent header(String lowerCaseName, String value) {
        headers.put(lowerCaseName, value);
        return this;
    }

    /** The cookies, which HTTP APIs move out of the headers into their own list. */
    public HttpApiEvent cookies(List<String> cookies) {
        this.cookies = List.copyOf(cookies);
        return this;
    }

    /** Decoded query parameters, repeated ones joined with commas. */
    public HttpApiEvent queryParameters(Map<String, String> decoded) {
        this.queryParameters = new LinkedHashMap<>(decoded);
        return this;
    }

    /** The API the request came in on. */
    public HttpApiEvent api(String accountId, String apiId, String domainName, String domainPrefix) {
        this.accountId = accountId;
        this.apiId = apiId;
        this.domainName = domainName;
        this.domainPrefix = domainPrefix;
        return this;
    }

    public HttpApiEvent protocol(String protocol) {
        this.protocol = protocol;
        return this;
    }

    public HttpApiEvent sourceIp(String sourceIp) {
        this.sourceIp = sourceIp;
        return this;
    }

    /** The context's user agent, where it differs from the {@code user-agent} header (the default). */
    public HttpApiEvent userAgent(String userAgent) {
        this.userAgent = userAgent;
        return this;
    }

    public HttpApiEvent requestId(String requestId) {
        this.requestId = requestId;
        return this;
    }

    /** When the request came in: API Gateway's {@code dd/MMM/yyyy:HH:mm:ss Z} text and unix ms. */
    public HttpApiEvent time(String text, long epochMillis) {
        this.time = text;
        this.timeEpoch = epochMillis;
        return this;
    }

    /** The IAM caller API Gateway verified (the request context's {@code authorizer.iam}). */
    public HttpApiEvent iamCaller(String accountId, String userArn) {
        this.iamCaller = userArn;
        this.accountId = this.accountId == null ? accountId : this.accountId;
        return this;
    }

    /** The body: text as sent, or base64 of the bytes; {@code null} text writes {@code "body":null}. */
    public HttpApiEvent body(String text, boolean base64) {
        this.hasBody = true;
        this.body = text;
        this.base64 = base64;
        return this;
    }

    /** The event's JSON text. */
    public String json() {
        JsonWriter event = new JsonWriter(512 + (body == null ? 0 : body.length()));
        event.field("version", "2.0").field("routeKey", routeKey).field("rawPath", rawPath).field("rawQueryString", rawQuery);
        if (!cookies.isEmpty()) {
            event.stringArray("cookies", cookies);
        }
        event.stringMap("headers", headers);
        if (!queryParameters.isEmpty()) {
            event.stringMap("queryStringParameters", queryParameters);
        }
        event.object("requestContext");
        if (apiId != null) {
            event.field("accountId", accountId).field("apiId", apiId).field("domainName", domainName);
            if (domainPrefix != null) {
                event.field("domainPrefix", domainPrefix);
            }
        }
        event.object("http").field("method", method).field("path", rawPath).field("protocol", protocol)
                .field("sourceIp", sourceIp).field("userAgent", userAgent != null ? userAgent : headers.getOrDefault("user-agent", "")).close();
        event.field("requestId", requestId).field("routeKey", routeKey).field("stage", "$default");
        if (time != null) {
            event.field("time", time).field("timeEpoch", timeEpoch);
        }
        if (iamCaller != null) {
            event.object("authorizer").object("iam").field("accountId", accountId).field("userArn", iamCaller).close().close();
        }
        event.close();
        if (hasBody) {
            event.field("body", body);
        }
        return event.field("isBase64Encoded", hasBody && base64).end();
    }
}
