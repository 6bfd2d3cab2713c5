package dev.snowid.lambda.http;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP request as the API sees it, whichever payload format it came in.
 *
 * @param routeKey the route API Gateway matched, as its table names it: payload 2.0's
 *                 {@code routeKey} ({@code GET /ids/{id}}, or {@code $default}), 1.0's
 *                 {@code httpMethod} and {@code resource}; {@code $default} when the event names none
 * @param method  the method as sent, case and all
 * @param path    decoded path, without the stage prefix
 * @param query   decoded query parameters, every value of a repeated one kept
 * @param headers header names in lower case
 * @param iamCaller the caller's ARN where API Gateway verified an IAM (SigV4) signature before
 *                  invoking us; clients cannot set it, API Gateway builds the request context
 */
public record ApiRequest(PayloadFormat format, String routeKey, String method, String path, Map<String, List<String>> query,
                  Map<String, String> headers, byte[] body, String requestId, Optional<String> iamCaller) {

    /** The same request under the id the Lambda runtime gave the invocation (it is in Lambda's own log lines too). */
    public ApiRequest withRequestId(String id) {
        return new ApiRequest(format, routeKey, method, path, query, headers, body, id, iamCaller);
    }

    public Optional<String> header(String lowerCaseName) {
        return Optional.ofNullable(headers.get(lowerCaseName));
    }

    /** Every value given for {@code name}; empty when it was not given. */
    public List<String> queryValues(String name) {
        return query.getOrDefault(name, List.of());
    }
}
