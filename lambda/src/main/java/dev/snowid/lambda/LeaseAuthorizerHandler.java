package dev.snowid.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.snowid.lambda.api.BearerSecretCheck;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.json.JsonReader;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.protocol.json.MalformedJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP API's Lambda REQUEST authorizer in front of the lease routes in bearer mode
 * ({@code dev.snowid.lambda.LeaseAuthorizerHandler::handleRequest}, the template's
 * {@code LeaseAuthorizerFunction}): a request without the bearer secret is refused by API Gateway
 * and never takes one of the lease function's environments, whose reserved concurrency the
 * fleet's renewals need. It answers API Gateway's simple response, {@code {"isAuthorized":…}},
 * from the one {@link BearerSecretCheck} the lease function applies again itself.
 *
 * <p>It reads only the hashes of the current and the next secret ({@value FunctionSettings#LEASE_SECRET_SHA256},
 * {@value FunctionSettings#LEASE_SECRET_NEXT_SHA256}), writes nothing but its answer, and logs
 * nothing of a request: what was presented is never written anywhere. An event it cannot read
 * is refused.
 */
public final class LeaseAuthorizerHandler implements RequestStreamHandler {

    /** An authorizer event is small: API Gateway's request context and the request's headers. */
    private static final JsonReader EVENTS = new JsonReader(new JsonReader.Limits(16, 1 << 20, 100, 1 << 20));
    private static final byte[] AUTHORIZED = "{\"isAuthorized\":true}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REFUSED = "{\"isAuthorized\":false}".getBytes(StandardCharsets.UTF_8);

    private final BearerSecretCheck check;

    /** The Lambda runtime's entry: the secrets' hashes from the environment. */
    public LeaseAuthorizerHandler() {
        this(FunctionSettings.fromEnvironment());
    }

    /** With {@code settings} instead of the environment's: the deploy test builds it from a deployed function's. */
    public LeaseAuthorizerHandler(FunctionSettings settings) {
        for (String warning : settings.warnings()) {
            System.out.println(warning); // names only, never a value
        }
        this.check = new BearerSecretCheck(settings.leaseSecretHashes());
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        output.write(authorized(input.readAllBytes()) ? AUTHORIZED : REFUSED);
        output.flush();
    }

    /** Whether the event's {@code Authorization} header shows a configured secret. */
    boolean authorized(byte[] event) {
        JsonValue root;
        try {
            root = EVENTS.read(event);
        } catch (MalformedJson e) {
            return false;
        }
        return check.refusal(authorization(root)).isEmpty();
    }

    /** The header as API Gateway passes it to an authorizer (payload 2.0: names in lower case), in any case to be sure. */
    private static Optional<String> authorization(JsonValue root) {
        Optional<Map<String, JsonValue>> headers = root.field("headers").flatMap(JsonValue::fields);
        if (headers.isEmpty()) {
            return Optional.empty();
        }
        for (Map.Entry<String, JsonValue> header : headers.get().entrySet()) {
            if (header.getKey().toLowerCase(Locale.ROOT).equals("authorization")) {
                return header.getValue().string();
            }
        }
        return Optional.empty();
    }
}
