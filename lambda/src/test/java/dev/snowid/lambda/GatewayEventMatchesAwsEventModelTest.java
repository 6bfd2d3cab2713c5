package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.snowid.lambda.http.ApiRequest;
import dev.snowid.lambda.http.GatewayEvent;
import dev.snowid.lambda.http.PayloadFormat;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our event parser reads what AWS's own event model reads. The handler parses API Gateway
 * events itself (a stream handler, no event classes); here every event fixture the handler tests use is
 * also loaded with {@code aws-lambda-java-tests}' {@link EventLoader} into the official POJOs, and
 * the two readings must agree field by field — so the fixtures are real events, and the parser
 * reads them as AWS does.
 */
class GatewayEventMatchesAwsEventModelTest {

    @ParameterizedTest
    @ValueSource(strings = {"http-api-v2-get-ids.json", "http-api-v2-decode-named-stage.json",
            "http-api-v2-post-leases-base64.json", "http-api-v2-post-leases-iam.json"})
    void payload20(String fixture) {
        APIGatewayV2HTTPEvent aws = EventLoader.loadApiGatewayHttpEvent("events/" + fixture);
        ApiRequest ours = GatewayEvent.read(SnowidHandlerTest.fixture(fixture).getBytes(StandardCharsets.UTF_8));

        assertEquals(PayloadFormat.V2, ours.format());
        assertEquals(aws.getRequestContext().getHttp().getMethod(), ours.method());
        String stage = aws.getRequestContext().getStage();
        String rawPath = aws.getRawPath();
        String expectedPath = "$default".equals(stage) ? rawPath : rawPath.substring(("/" + stage).length());
        assertEquals(expectedPath, ours.path());
        assertEquals(lowerCase(aws.getHeaders()), ours.headers());
        if (aws.getQueryStringParameters() != null) {
            aws.getQueryStringParameters().forEach((name, value) -> assertEquals(List.of(value.split(",")), ours.queryValues(name)));
        }
        assertArrayEquals(body(aws.getBody(), aws.getIsBase64Encoded()), ours.body());
        assertEquals(aws.getRequestContext().getRequestId(), ours.requestId());
        Optional<String> iam = Optional.ofNullable(aws.getRequestContext().getAuthorizer())
                .map(APIGatewayV2HTTPEvent.RequestContext.Authorizer::getIam)
                .map(APIGatewayV2HTTPEvent.RequestContext.IAM::getUserArn);
        assertEquals(iam, ours.iamCaller());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rest-api-v1-post-ids.json", "rest-api-v1-repeated-count.json", "rest-api-v1-post-leases-iam.json"})
    void payload10(String fixture) {
        APIGatewayProxyRequestEvent aws = EventLoader.loadApiGatewayRestEvent("events/" + fixture);
        ApiRequest ours = GatewayEvent.read(SnowidHandlerTest.fixture(fixture).getBytes(StandardCharsets.UTF_8));

        assertEquals(PayloadFormat.V1, ours.format());
        assertEquals(aws.getHttpMethod(), ours.method());
        assertEquals(aws.getPath(), ours.path());
        // REST APIs send each header twice: its last value in headers, all of them in multiValueHeaders.
        Map<String, String> headers = lowerCase(aws.getHeaders());
        aws.getMultiValueHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
        assertEquals(headers, new TreeMap<>(ours.headers()));
        if (aws.getMultiValueQueryStringParameters() != null) {
            aws.getMultiValueQueryStringParameters().forEach((name, values) -> assertEquals(values, ours.queryValues(name)));
        }
        assertArrayEquals(body(aws.getBody(), Boolean.TRUE.equals(aws.getIsBase64Encoded())), ours.body());
        assertEquals(aws.getRequestContext().getRequestId(), ours.requestId());
        assertEquals(Optional.ofNullable(aws.getRequestContext().getIdentity().getUserArn()), ours.iamCaller());
    }

    private static Map<String, String> lowerCase(Map<String, String> headers) {
        Map<String, String> lower = new TreeMap<>();
        headers.forEach((name, value) -> lower.put(name.toLowerCase(Locale.ROOT), value));
        return lower;
    }

    private static byte[] body(String body, boolean base64) {
        if (body == null) {
            return new byte[0];
        }
        return base64 ? Base64.getDecoder().decode(body) : body.getBytes(StandardCharsets.UTF_8);
    }
}
