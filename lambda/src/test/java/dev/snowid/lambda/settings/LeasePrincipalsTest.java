package dev.snowid.lambda.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeasePrincipalsTest {

    @Test
    void aListedRoleAdmitsItsSessionsAsApiGatewayReportsThem() {
        LeasePrincipals principals = LeasePrincipals.parse("arn:aws:iam::123456789012:role/snowid-workload");
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload/i-0abc123"));
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload/botocore-session-1700000000"));
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload-admin/s"), "another role with a longer name");
        assertFalse(principals.admits("arn:aws:sts::210987654321:assumed-role/snowid-workload/s"), "the same name in another account");
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/Admin/s"));
        assertFalse(principals.admits("arn:aws:iam::123456789012:user/snowid-workload"));
    }

    @Test
    void aRoleWithAPathIsMatchedByItsNameAloneInTheSessionArn() {
        LeasePrincipals principals = LeasePrincipals.parse("arn:aws:iam::123456789012:role/service/eks/snowid-workload");
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload/pod"));
        assertTrue(principals.admits("arn:aws:iam::123456789012:role/service/eks/snowid-workload"));
    }

    @Test
    void wildcardPatternsMatchAnyRunOfCharacters() {
        LeasePrincipals principals = LeasePrincipals.parse(
                "arn:aws:sts::123456789012:assumed-role/snowid-*/*, arn:aws:iam::*:user/ci-tool");
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-orders/i-1"));
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-/x"));
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/orders-snowid/i-1"));
        assertTrue(principals.admits("arn:aws:iam::555555555555:user/ci-tool"));
        assertFalse(principals.admits("arn:aws:iam::555555555555:user/ci-tool-2"));
        assertEquals(List.of("arn:aws:sts::123456789012:assumed-role/snowid-*/*", "arn:aws:iam::*:user/ci-tool"), principals.entries());
    }

    @Test
    void anExactSessionAdmitsThatSessionOnly() {
        LeasePrincipals principals = LeasePrincipals.parse("arn:aws:sts::123456789012:assumed-role/r/one");
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/r/one"));
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/r/two"));
    }

    @Test
    void aBlankListAdmitsNobody() {
        LeasePrincipals principals = LeasePrincipals.parse("  , ");
        assertTrue(principals.isEmpty());
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/r/one"));
    }

    @Test
    void entriesThatAreNoArnOrAdmitEveryoneAreRefusedNamingTheEntry() {
        for (String bad : List.of("*", "snowid-workload", "arn:aws:s3:::bucket", "arn:aws:iam::12345:role/x", "arn:aws:iam::*:role/*",
                "arn:aws:sts::*:assumed-role/*/*", "arn:*:iam::*:*")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LeasePrincipals.parse(bad), bad);
            assertTrue(refused.getMessage().startsWith("entry '" + bad + "'"), refused.getMessage());
        }
    }
}
