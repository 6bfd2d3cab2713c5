package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.InvalidSettingException;
import dev.snowid.protocol.SlotMap;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * In {@code aws_iam} mode the function admits only the principals {@value FunctionSettings#LEASE_PRINCIPALS}
 * lists, on API Gateway v2 events whose {@code requestContext.authorizer.iam.userArn} carries the
 * caller API Gateway verified: a listed role's session, a wildcard match; not an unlisted caller
 * (403 naming it and the setting), not a blank one, and never a bearer secret, even a configured one.
 */
class LeasePrincipalsHandlerTest {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    private static final String ROLE = "arn:aws:iam::123456789012:role/orders-service";
    private static final String SESSION = "arn:aws:sts::123456789012:assumed-role/orders-service/i-0abc1234";
    private static final String PATTERN = "arn:aws:sts::123456789012:assumed-role/snowid-*/*";

    @Test
    void aListedRolesSessionLeasesAndIsNamedAsTheHolderInTheSlotMapAndTheAuditLines() {
        try (Function function = iam(ROLE)) {
            Invocation acquired = function.call(TestEvents.request("POST", "/leases").iamCaller(SESSION).body("{\"holder\":\"orders-7\"}"),
                    PayloadFormat.V2);
            assertEquals(201, acquired.status(), acquired::toString);

            Invocation map = function.call(TestEvents.get("/leases").iamCaller(SESSION), PayloadFormat.V2);
            assertEquals(200, map.status(), map::toString);
            List<SlotMap.Entry> leases = SlotMap.read(map.body()).leases();
            assertEquals(1, leases.size(), map.body());
            assertEquals(SESSION + " (orders-7)", leases.get(0).lease().holder());

            JsonNode granted = function.auditLines().get(0);
            assertEquals(SESSION + " (orders-7)", granted.field("holder").orElseThrow().text(), granted.toString());
            assertTrue(granted.field("caller").orElseThrow().text().startsWith("IAM caller " + SESSION + ", request "), granted.toString());
        }
    }

    @Test
    void anUnlistedVerifiedCallerGets403NamingItAndTheSetting() {
        try (Function function = iam(ROLE)) {
            for (String caller : List.of("arn:aws:sts::123456789012:assumed-role/Admin/alice", "arn:aws:iam::123456789012:user/ci",
                    "arn:aws:sts::210987654321:assumed-role/orders-service/i-1")) {
                for (String[] route : new String[][] {{"POST", "/leases"}, {"GET", "/leases"}, {"PUT", "/leases/0"}, {"DELETE", "/leases/0"}}) {
                    Invocation refused = function.call(TestEvents.request(route[0], route[1]).iamCaller(caller)
                            .body("{\"owner\":\"0123456789abcdef0123456789abcdef\",\"fence\":1,\"lastIssued\":0}"), PayloadFormat.V2);
                    assertEquals(403, refused.status(), caller + " " + route[0] + " " + route[1] + ": " + refused);
                    assertEquals("forbidden", refused.text("error"));
                    assertTrue(refused.text("message").contains(caller) && refused.text("message").contains(FunctionSettings.LEASE_PRINCIPALS),
                            refused.body());
                }
            }
            assertEquals(0, store.rows().size(), "nothing was leased");
        }
    }

    @Test
    void aWildcardPatternAdmitsTheSessionsItMatches() {
        try (Function function = iam(PATTERN)) {
            Invocation granted = function.call(TestEvents.request("POST", "/leases")
                    .iamCaller("arn:aws:sts::123456789012:assumed-role/snowid-billing/pod-7"), PayloadFormat.V2);
            assertEquals(201, granted.status(), granted::toString);
            Invocation refused = function.call(TestEvents.request("POST", "/leases")
                    .iamCaller("arn:aws:sts::123456789012:assumed-role/billing-snowid/pod-7"), PayloadFormat.V2);
            assertEquals(403, refused.status(), refused::toString);
        }
    }

    @Test
    void aBlankCallerAndABearerSecretOpenNothingEvenWithASecretConfigured() {
        // Functions' environment configures the bearer secret's hash: in aws_iam mode it must count for nothing.
        try (Function function = Functions.inMemory(store, FunctionSettings.LEASE_AUTH, "aws_iam",
                FunctionSettings.LEASE_PRINCIPALS, ROLE)) {
            for (String blank : new String[] {"", " "}) {
                Invocation refused = function.call(TestEvents.request("POST", "/leases").iamCaller(blank), PayloadFormat.V2);
                assertEquals(401, refused.status(), "ARN '" + blank + "': " + refused);
            }
            Invocation bearer = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
            assertEquals(401, bearer.status(), "the configured secret opens nothing in aws_iam mode: " + bearer);
            assertTrue(bearer.text("message").contains("IAM"), bearer.body());
            assertEquals(0, store.rows().size());
        }
    }

    @Test
    void iamModeWithoutAListIsRefusedAtStartUpAndAListInBearerModeToo() {
        InvalidSettingException none = assertThrows(InvalidSettingException.class,
                () -> Functions.inMemory(store, FunctionSettings.LEASE_AUTH, "aws_iam"));
        assertEquals(FunctionSettings.LEASE_PRINCIPALS, none.variable());
        InvalidSettingException blank = assertThrows(InvalidSettingException.class,
                () -> Functions.inMemory(store, FunctionSettings.LEASE_AUTH, "aws_iam", FunctionSettings.LEASE_PRINCIPALS, " , "));
        assertEquals(FunctionSettings.LEASE_PRINCIPALS, blank.variable());
        InvalidSettingException bearer = assertThrows(InvalidSettingException.class,
                () -> Functions.inMemory(store, FunctionSettings.LEASE_PRINCIPALS, ROLE));
        assertTrue(bearer.getMessage().contains("aws_iam"), bearer.getMessage());
        InvalidSettingException everyone = assertThrows(InvalidSettingException.class,
                () -> Functions.inMemory(store, FunctionSettings.LEASE_AUTH, "aws_iam", FunctionSettings.LEASE_PRINCIPALS, "*"));
        assertTrue(everyone.getMessage().startsWith(FunctionSettings.LEASE_PRINCIPALS + ": entry '*'"), everyone.getMessage());
    }

    private Function iam(String principals) {
        return Functions.inMemory(store, FunctionSettings.LEASE_AUTH, "aws_iam", FunctionSettings.LEASE_SECRET_SHA256, null,
                FunctionSettings.LEASE_PRINCIPALS, principals);
    }
}
