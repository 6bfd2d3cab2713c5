package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2CustomAuthorizerEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.api.BearerSecretCheck;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.json.JsonWriter;
import dev.snowid.testing.InMemoryLeaseStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bearer-mode authorizer in front of the lease routes: API Gateway's payload 2.0 REQUEST
 * authorizer event in, its simple response out. It admits exactly the headers the lease function
 * admits (one check, {@link BearerSecretCheck}), the current and the next secret, and writes
 * nothing of what was presented anywhere.
 */
class LeaseAuthorizerHandlerTest {

    private static final String CURRENT = "auth-current-Qm4tZ8xK2pW7vN1cRb5Y";
    private static final String NEXT = "auth-next-Jd7wQ2mX9kV4tR8zL1pNq3";

    @Test
    void theFixtureIsTheEventApiGatewaySendsAnAuthorizer() {
        APIGatewayV2CustomAuthorizerEvent aws = EventLoader.loadAPIGatewayV2CustomAuthorizerEvent(
                "events/http-api-v2-authorizer-post-leases.json");
        assertEquals("REQUEST", aws.getType());
        assertEquals("POST /leases", aws.getRouteKey());
        assertEquals("{{authorization}}", aws.getHeaders().get("authorization"));
        assertEquals(List.of("{{authorization}}"), aws.getIdentitySource());
    }

    @Test
    void theCurrentAndTheNextSecretAreAuthorizedAndNothingElseIs() throws IOException {
        LeaseAuthorizerHandler authorizer = authorizer(Map.of(FunctionSettings.LEASE_SECRET_SHA256, hash(CURRENT),
                FunctionSettings.LEASE_SECRET_NEXT_SHA256, hash(NEXT)));
        for (String header : new String[] {"Bearer " + CURRENT, "Bearer " + NEXT, "bearer " + CURRENT, "BEARER  " + NEXT + " "}) {
            assertEquals("{\"isAuthorized\":true}", answer(authorizer, event(header)), header);
        }
        for (String header : new String[] {"Bearer " + CURRENT + "x", "Bearer", "Bearer ", CURRENT, "Basic " + CURRENT,
            "Bearer " + CURRENT.toUpperCase(), ""}) {
            assertEquals("{\"isAuthorized\":false}", answer(authorizer, event(header)), header);
        }
        assertEquals("{\"isAuthorized\":false}", answer(authorizer, fixture().replace("\"authorization\": \"{{authorization}}\",", "")),
                "no header");
        for (String broken : new String[] {"", "not json", "[]", "{\"headers\":\"Bearer " + CURRENT + "\"}", "{".repeat(100)}) {
            assertEquals("{\"isAuthorized\":false}", answer(authorizer, broken), broken);
        }
    }

    /** Issue 32: these hashed, after trimming, to the empty string's SHA-256, which a misconfigured deployment held. */
    static final String[] NOTHING_AFTER_TRIMMING = {"Bearer  ", "Bearer \u0001", "bearer \u001f\u001f"};

    @Test
    void aCredentialThatIsEmptyAfterTrimmingIsRefusedEvenByACheckHoldingTheEmptyStringsHash() throws IOException {
        // The settings refuse that hash; the check must not lean on it: it refuses "nothing" whatever it holds.
        BearerSecretCheck holdingTheEmptyHash = new BearerSecretCheck(List.of(BearerSecretCheck.sha256("")));
        LeaseAuthorizerHandler authorizer = authorizer(Map.of(FunctionSettings.LEASE_SECRET_SHA256, hash(CURRENT)));
        for (String header : NOTHING_AFTER_TRIMMING) {
            assertEquals(Optional.of("the Authorization header is 'Bearer ' with no secret after it"),
                    holdingTheEmptyHash.refusal(Optional.of(header)), header);
            assertEquals("{\"isAuthorized\":false}", answer(authorizer, event(header)), header);
        }
    }

    @Test
    void withoutAConfiguredHashNobodyIsAuthorized() throws IOException {
        LeaseAuthorizerHandler authorizer = authorizer(Map.of());
        assertEquals("{\"isAuthorized\":false}", answer(authorizer, event("Bearer " + CURRENT)));
    }

    @Test
    void itAdmitsExactlyWhatTheLeaseFunctionAdmits() throws IOException {
        LeaseAuthorizerHandler authorizer = authorizer(Map.of(FunctionSettings.LEASE_SECRET_SHA256, hash(Functions.SECRET)));
        List<String> headers = new ArrayList<>(List.of(NOTHING_AFTER_TRIMMING));
        headers.addAll(List.of("Bearer " + Functions.SECRET, "bearer " + Functions.SECRET,
                "Bearer  " + Functions.SECRET + "  ", "Bearer " + Functions.SECRET + "x", "Token " + Functions.SECRET, "Bearer",
                "Bearer" + Functions.SECRET, "Bearer " + Functions.SECRET.toUpperCase()));
        try (Function function = Functions.inMemory(new InMemoryLeaseStore())) {
            for (String header : headers) {
                boolean functionAdmits = function.call(TestEvents.request("GET", "/leases").header("Authorization", header),
                        PayloadFormat.V2).status() == 200;
                boolean authorizerAdmits = answer(authorizer, event(header)).equals("{\"isAuthorized\":true}");
                assertEquals(functionAdmits, authorizerAdmits, header);
            }
            for (String nothing : NOTHING_AFTER_TRIMMING) {
                assertEquals(401, function.call(TestEvents.request("GET", "/leases").header("Authorization", nothing), PayloadFormat.V2)
                        .status(), "the function's own check: " + nothing);
            }
        }
    }

    @Test
    void nothingPresentedIsWrittenAnywhere() throws IOException {
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        String answers;
        try {
            LeaseAuthorizerHandler authorizer = authorizer(Map.of(FunctionSettings.LEASE_SECRET_SHA256, hash(CURRENT),
                    "SNOWID_LEASE_SECRET", CURRENT + "-leftover"));
            answers = answer(authorizer, event("Bearer " + CURRENT)) + answer(authorizer, event("Bearer wrong-" + CURRENT));
        } finally {
            System.setOut(stdout);
        }
        assertFalse(printed.toString(StandardCharsets.UTF_8).contains(CURRENT), printed.toString(StandardCharsets.UTF_8));
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("SNOWID_LEASE_SECRET is not a setting"), "the typo is named");
        assertEquals("{\"isAuthorized\":true}{\"isAuthorized\":false}", answers);
    }

    private static LeaseAuthorizerHandler authorizer(Map<String, String> environment) {
        return new LeaseAuthorizerHandler(FunctionSettings.from(environment));
    }

    private static String answer(LeaseAuthorizerHandler authorizer, String event) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        authorizer.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, null);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The fixture with this Authorization header, as API Gateway would write it. */
    private static String event(String authorization) {
        String quoted = new JsonWriter().field("a", authorization).end();
        String escaped = quoted.substring(quoted.indexOf(':') + 2, quoted.length() - 2);
        return fixture().replace("{{authorization}}", escaped);
    }

    private static String fixture() {
        return SnowidHandlerTest.fixture("http-api-v2-authorizer-post-leases.json");
    }

    private static String hash(String secret) {
        return HexFormat.of().formatHex(BearerSecretCheck.sha256(secret));
    }
}
