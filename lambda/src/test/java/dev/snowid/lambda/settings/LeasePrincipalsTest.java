package dev.snowid.lambda.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LeasePrincipalsTest {

    /** Callers API Gateway may report, of two accounts: every refused entry must admit none of them. */
    private static final List<String> CALLERS = List.of(
            "arn:aws:sts::123456789012:assumed-role/OrganizationAccountAccessRole/admin-session",
            "arn:aws:sts::123456789012:assumed-role/snowid-orders/i-1",
            "arn:aws:sts::123456789012:assumed-role/orders/i-1",
            "arn:aws:iam::123456789012:user/admin",
            "arn:aws:iam::123456789012:role/snowid/orders",
            "arn:aws:sts::210987654321:assumed-role/Admin/s",
            "arn:aws:iam::210987654321:user/u");

    @Test
    void aListedRoleAdmitsItsSessionsAsApiGatewayReportsThem() {
        LeasePrincipals principals = LeasePrincipals.parse("arn:aws:iam::123456789012:role/snowid-workload");
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload/i-0abc123"));
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload/botocore-session-1700000000"));
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload-admin/s"), "another role with a longer name");
        assertFalse(principals.admits("arn:aws:sts::210987654321:assumed-role/snowid-workload/s"), "the same name in another account");
        assertFalse(principals.admits("arn:aws-cn:sts::123456789012:assumed-role/snowid-workload/s"), "another partition");
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/Admin/s"));
        assertFalse(principals.admits("arn:aws:iam::123456789012:user/snowid-workload"));
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload"), "no session");
        assertFalse(principals.admits("arn:aws:sts::123456789012:federated-user/snowid-workload"));
    }

    @Test
    void aRoleWithAPathIsMatchedByItsNameAloneInTheSessionArnForRoleNamesAreUniqueInAnAccount() {
        LeasePrincipals principals = LeasePrincipals.parse("arn:aws:iam::123456789012:role/service/eks/snowid-workload");
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-workload/pod"));
        assertTrue(principals.admits("arn:aws:iam::123456789012:role/service/eks/snowid-workload"));
        assertFalse(principals.admits("arn:aws:iam::123456789012:role/snowid-workload"), "the role's ARN is its path and name");
    }

    @Test
    void everyRoleOfOneNamedAccountIsWrittenOutAndStaysInThatAccount() {
        LeasePrincipals principals = LeasePrincipals.parse("arn:aws:iam::123456789012:role/*");
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/anything/s"));
        assertTrue(principals.admits("arn:aws:iam::123456789012:role/path/anything"));
        assertFalse(principals.admits("arn:aws:iam::123456789012:user/u"), "users are not roles");
        assertFalse(principals.admits("arn:aws:sts::210987654321:assumed-role/anything/s"));

        LeasePrincipals users = LeasePrincipals.parse("arn:aws:iam::123456789012:user/*");
        assertTrue(users.admits("arn:aws:iam::123456789012:user/ci/tool"));
        assertFalse(users.admits("arn:aws:sts::123456789012:assumed-role/r/s"));
    }

    @Test
    void sessionPatternsMatchWithinTheNameTheyAreWrittenIn() {
        LeasePrincipals principals = LeasePrincipals.parse(
                "arn:aws:sts::123456789012:assumed-role/snowid-*/*, arn:aws:iam::123456789012:user/ci-tool");
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-orders/i-1"));
        assertTrue(principals.admits("arn:aws:sts::123456789012:assumed-role/snowid-/x"));
        assertFalse(principals.admits("arn:aws:sts::123456789012:assumed-role/orders-snowid/i-1"));
        assertFalse(principals.admits("arn:aws:sts::210987654321:assumed-role/snowid-orders/i-1"), "its account only");
        assertTrue(principals.admits("arn:aws:iam::123456789012:user/ci-tool"));
        assertFalse(principals.admits("arn:aws:iam::123456789012:user/ci-tool-2"));
        assertEquals(List.of("arn:aws:sts::123456789012:assumed-role/snowid-*/*", "arn:aws:iam::123456789012:user/ci-tool"),
                principals.entries());
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
    void aRolePathWildcardIsRefusedSayingWhyAndWhatToWriteAndAdmitsNobody() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> LeasePrincipals.parse("arn:aws:iam::123456789012:role/snowid/*"));
        assertTrue(refused.getMessage().startsWith("entry 'arn:aws:iam::123456789012:role/snowid/*' is a role path wildcard"),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("without the role's path"), refused.getMessage());
        assertTrue(refused.getMessage().contains("admits nobody"), refused.getMessage());
        assertTrue(refused.getMessage().contains("arn:aws:sts::123456789012:assumed-role/<name>/*"), refused.getMessage());

        IllegalArgumentException names = assertThrows(IllegalArgumentException.class,
                () -> LeasePrincipals.parse("arn:aws:iam::123456789012:role/snowid-*"));
        assertTrue(names.getMessage().contains("arn:aws:sts::123456789012:assumed-role/snowid-*/*"), names.getMessage());
    }

    @Test
    void aWildcardAccountIsRefusedSayingHowToListSeveral() {
        for (String entry : List.of("arn:aws:sts::*:a*", "arn:aws:iam::*:u*", "arn:aws:iam::*:role/orders",
                "arn:aws:sts::12345678901*:assumed-role/r/s")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LeasePrincipals.parse(entry), entry);
            assertTrue(refused.getMessage().contains("one entry per account"), refused.getMessage());
        }
    }

    @Test
    void aWildcardNeverSpansTheResourceType() {
        for (String entry : List.of("arn:aws:sts::123456789012:a*", "arn:aws:iam::123456789012:u*", "arn:aws:iam::123456789012:*",
                "arn:aws:sts::123456789012:*/r/s", "arn:aws:sts::123456789012:assumed-*/r/s", "arn:aws:iam::123456789012:r*/x")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LeasePrincipals.parse(entry), entry);
            assertTrue(refused.getMessage().startsWith("entry '" + entry + "'"), refused.getMessage());
            assertTrue(refused.getMessage().contains("written out"), refused.getMessage());
        }
    }

    @Test
    void entriesThatAreNoArnOrOfNoOneAccountAreRefusedNamingTheEntryAndAdmitNobody() {
        for (String bad : List.of("*", "snowid-workload", "arn:aws:s3:::bucket", "arn:aws:iam::12345:role/x", "arn:aws:iam::*:role/*",
                "arn:aws:sts::*:assumed-role/*/*", "arn:*:iam::*:*", "arn:*:iam::123456789012:role/x", "arn:aws:*::123456789012:role/x",
                "arn:aws:iam::123456789012:role/snowid/*", "arn:aws:iam::123456789012:role/", "arn:aws:iam::123456789012:role//x",
                "arn:aws:iam::123456789012:user/ci-*", "arn:aws:sts::123456789012:assumed-role/*", "arn:aws:sts::123456789012:assumed-role/r/s/t",
                "arn:aws:sts::123456789012:federated-user/*", "arn:aws:iam::123456789012:root", "arn:aws:iam::123456789012:group/*")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LeasePrincipals.parse(bad), bad);
            assertTrue(refused.getMessage().startsWith("entry '" + bad + "'"), refused.getMessage());
            assertTrue(refused.getMessage().contains("Allowed: "), refused.getMessage());
            // One good entry beside it changes nothing: the list is refused whole.
            assertThrows(IllegalArgumentException.class, () -> LeasePrincipals.parse("arn:aws:iam::123456789012:role/orders," + bad));
        }
    }

    @Test
    void everyAcceptedFormAdmitsOnlyItsOwnAccountsCallers() {
        for (String entry : List.of("arn:aws:iam::123456789012:role/orders", "arn:aws:iam::123456789012:role/*",
                "arn:aws:iam::123456789012:user/*", "arn:aws:sts::123456789012:assumed-role/*/*")) {
            LeasePrincipals principals = LeasePrincipals.parse(entry);
            for (String caller : CALLERS) {
                if (caller.contains("210987654321")) {
                    assertFalse(principals.admits(caller), entry + " admits " + caller);
                }
            }
        }
    }

    @Test
    void theDeployGuidesTableOfEntriesIsAcceptedAndItsRefusedExamplesAreRefused() throws IOException {
        Path root = Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();
        String page = Files.readString(root.resolve("docs/deploy.md"), StandardCharsets.UTF_8);
        String table = page.substring(page.indexOf("| entry | admits |"), page.indexOf("Refused, and the function does not start"));
        String refusedText = page.substring(page.indexOf("Refused, and the function does not start"), page.indexOf("For several accounts"));
        String severalAccounts = page.substring(page.indexOf("For several accounts"), page.indexOf("`AWS_IAM` without a list is refused too"));
        List<String> accepted = new ArrayList<>();
        Matcher arn = Pattern.compile("`(arn:[^`]+)`").matcher(table);
        while (arn.find()) {
            accepted.add(arn.group(1));
        }
        assertTrue(accepted.size() >= 4, "the table's entries: " + accepted);
        accepted.forEach(LeasePrincipals::parse);
        Matcher refused = Pattern.compile("`(arn:[^`]+)`").matcher(refusedText);
        int refusedExamples = 0;
        while (refused.find()) {
            String entry = refused.group(1);
            assertThrows(IllegalArgumentException.class, () -> LeasePrincipals.parse(entry), entry);
            refusedExamples++;
        }
        assertTrue(refusedExamples >= 2, refusedText);
        Matcher several = Pattern.compile("`(arn:[^`]+)`").matcher(severalAccounts);
        assertTrue(several.find(), severalAccounts);
        assertTrue(LeasePrincipals.parse(several.group(1)).admits("arn:aws:sts::222222222222:assumed-role/orders/i-1"), severalAccounts);
        assertTrue(refusedText.contains("`role/snowid/*`"), refusedText);
        assertThrows(IllegalArgumentException.class, () -> LeasePrincipals.parse("arn:aws:iam::123456789012:role/snowid/*"));
        assertThrows(IllegalArgumentException.class, () -> LeasePrincipals.parse("arn:aws:iam::123456789012:role/snowid-*"));
    }
}
