package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.api.BearerSecretCheck;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Who opens the lease routes: in bearer mode only the secret (an IAM caller in the request
 * context is anyone's to write when they may invoke the function); in IAM mode only a caller
 * API Gateway verified, never a blank one; and two secrets at once during a rotation.
 */
class LeaseAuthModesTest {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    private static final String FORGED = "arn:aws:iam::123456789012:user/forged";
    private static final String NEXT_SECRET = "the next secret, rotated in";

    @ParameterizedTest
    @EnumSource(PayloadFormat.class)
    void aForgedIamCallerOpensNoLeaseRouteInBearerMode(PayloadFormat format) {
        try (Function function = Functions.inMemory(store)) {
            for (String[] route : new String[][] {{"POST", "/leases"}, {"GET", "/leases"}, {"PUT", "/leases/0"}, {"DELETE", "/leases/0"}}) {
                Invocation answer = function.call(TestEvents.request(route[0], route[1]).iamCaller(FORGED)
                        .body("{\"owner\":\"0123456789abcdef0123456789abcdef\",\"fence\":1,\"lastIssued\":0}"), format);
                assertEquals(401, answer.status(), route[0] + " " + route[1] + ": " + answer);
                assertEquals("unauthorized", answer.text("error"));
            }
            assertEquals(0, store.rows().size(), "nothing was leased");
        }
    }

    @ParameterizedTest
    @EnumSource(PayloadFormat.class)
    void inIamModeAVerifiedCallerIsAcceptedAndABlankOneIsNot(PayloadFormat format) {
        try (Function function = Functions.inMemory(store, FunctionSettings.LEASE_AUTH, "AWS_IAM",
                FunctionSettings.LEASE_SECRET_SHA256, null, FunctionSettings.LEASE_PRINCIPALS,
                "arn:aws:iam::123456789012:role/app arn:aws:iam::123456789012:role/ops")) {
            Invocation granted = function.call(TestEvents.request("POST", "/leases").iamCaller("arn:aws:iam::123456789012:role/app"), format);
            assertEquals(201, granted.status(), granted::toString);
            Invocation map = function.call(TestEvents.get("/leases").iamCaller("arn:aws:iam::123456789012:role/ops"), format);
            assertEquals(200, map.status(), map::toString);

            for (String blank : new String[] {"", " ", "\t"}) {
                Invocation refused = function.call(TestEvents.request("POST", "/leases").iamCaller(blank), format);
                assertEquals(401, refused.status(), "ARN '" + blank + "': " + refused);
            }
            Invocation noCaller = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), format);
            assertEquals(401, noCaller.status(), "IAM mode with no secret configured takes no bearer: " + noCaller);
            assertEquals(1, store.rows().size(), "one lease, the verified caller's");
        }
    }

    @Test
    void duringARotationBothSecretsOpenTheRoutesAndAfterItOnlyTheNewOne() {
        String next = HexFormat.of().formatHex(BearerSecretCheck.sha256(NEXT_SECRET));
        try (Function overlap = Functions.inMemory(store, FunctionSettings.LEASE_SECRET_NEXT_SHA256, next)) {
            assertEquals(201, acquire(overlap, Functions.SECRET).status(), "the current secret during the overlap");
            assertEquals(201, acquire(overlap, NEXT_SECRET).status(), "the next secret during the overlap");
            assertEquals(401, acquire(overlap, "neither").status());
        }
        try (Function after = Functions.inMemory(store, FunctionSettings.LEASE_SECRET_SHA256, next)) {
            Invocation old = acquire(after, Functions.SECRET);
            assertEquals(401, old.status(), "the old secret after the rotation: " + old);
            assertEquals(201, acquire(after, NEXT_SECRET).status(), "the new secret after the rotation");
        }
    }

    private static Invocation acquire(Function function, String secret) {
        return function.call(TestEvents.request("POST", "/leases").bearer(secret), PayloadFormat.V2);
    }
}
