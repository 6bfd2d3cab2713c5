package dev.snowid.lambda.settings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.internal.Setting;
import dev.snowid.testing.MessageProse;
import dev.snowid.region.Block;
import dev.snowid.region.Claimant;
import dev.snowid.testing.SettingsTables;
import dev.snowid.protocol.LeaseAuthMode;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FunctionSettingsTest {

    @Test
    void eachDeclaredDefaultIsWhatTheFunctionDoesWhenTheVariableIsUnset() {
        String unset = observable(FunctionSettings.from(Map.of()));
        int literals = 0;
        for (Setting<?> setting : FunctionSettings.CATALOGUE.settings()) {
            if (setting.defaultValue() != null) {
                literals++;
                assertEquals(unset, observable(FunctionSettings.from(Map.of(setting.name(), setting.defaultValue()))),
                        setting.name() + " is declared to default to " + setting.defaultValue());
            }
        }
        assertEquals(13, literals, "the variables with a literal default");

        FunctionSettings settings = FunctionSettings.from(Map.of());
        assertEquals("snowid-leases", settings.table());
        assertEquals(4 * 32, settings.pool().size());
        assertEquals(60_000, settings.leaseTerms().leaseMillis());
        assertEquals(2_000, settings.leaseTerms().maxClockSkewMillis());
        assertEquals(SnowflakeCodec.TWITTER_EPOCH_MILLIS, settings.codec().epochMillis());
        assertTrue(settings.leaseSecretHashes().isEmpty());
        assertTrue(settings.dynamoDbEndpoint().isEmpty());
        assertEquals(FunctionSettings.Metrics.OFF, settings.metrics());
        assertEquals(FunctionRole.ALL, settings.role());
        assertEquals(LeaseAuthMode.BEARER, settings.leaseAuth());
        assertEquals(Claimant.of("local", "snowid"), settings.region().claimant());
        assertFalse(settings.region().guarded(), "no registry: a lone stack");
    }

    @Test
    void anUnknownVariableIsNamedWithTheClosestSetting() {
        FunctionSettings settings = FunctionSettings.from(Map.of("SNOWID_LEASE_MILIS", "30000", "SNOWID_COLOUR", "blue",
                "SNOWID_PORT", "8080", "OTHER", "x"), java.util.List.of("SNOWID_PORT"));
        assertEquals(java.util.List.of(
                "[unknown_setting] environment variable SNOWID_COLOUR is not a setting of the function and is ignored; the function reads "
                        + FunctionSettings.NAMES,
                "[unknown_setting] environment variable SNOWID_LEASE_MILIS is not a setting of the function and is ignored;"
                        + " did you mean `SNOWID_LEASE_MILLIS`?"), settings.warnings());
        assertEquals(60_000, settings.leaseTerms().leaseMillis(), "the typo kept the default; the warning says so");
        assertEquals(java.util.List.of(), FunctionSettings.from(Map.of("SNOWID_TABLE", "orders")).warnings());
    }

    @Test
    void readsEveryVariableAndWarnsAboutNone() {
        String hash = "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08";
        String next = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752";
        Map<String, String> every = Map.ofEntries(
                Map.entry(FunctionSettings.TABLE, "ids.prod"),
                Map.entry(FunctionSettings.DATACENTERS, "4-5"),
                Map.entry(FunctionSettings.MACHINES, "7"),
                Map.entry(FunctionSettings.LEASE_MILLIS, "5000"),
                Map.entry(FunctionSettings.MAX_CLOCK_SKEW_MILLIS, "0"),
                Map.entry(FunctionSettings.EPOCH_MILLIS, "1600000000000"),
                Map.entry(FunctionSettings.LEASE_SECRET_SHA256, hash),
                Map.entry(FunctionSettings.LEASE_SECRET_NEXT_SHA256, next),
                Map.entry(FunctionSettings.LEASE_AUTH, "AWS_IAM"),
                Map.entry(FunctionSettings.LEASE_PRINCIPALS, "arn:aws:iam::123456789012:role/app"),
                Map.entry(FunctionSettings.AGENT_SLOTS, "1"),
                Map.entry(FunctionSettings.ROLE, "leases"),
                Map.entry(FunctionSettings.DYNAMODB_ENDPOINT, "http://localhost:8000"),
                Map.entry(FunctionSettings.METRICS, "EMF"),
                Map.entry(FunctionSettings.METRICS_NAMESPACE, "ids/prod"),
                Map.entry(FunctionSettings.SERVICE, "ids-prod"),
                Map.entry(FunctionSettings.REGION, "eu-west-1"),
                Map.entry(FunctionSettings.STACK, "snowid-eu"),
                Map.entry(FunctionSettings.REGISTRY_TABLE, "snowid-registry"),
                Map.entry(FunctionSettings.REGISTRY_REGION, "us-east-1"),
                Map.entry(FunctionSettings.REGISTRY_ENDPOINT, "http://localhost:8001"),
                Map.entry(FunctionSettings.LAMBDA_FUNCTION_NAME, "snowid"),
                Map.entry(FunctionSettings.LAMBDA_LOG_STREAM_NAME, "2026/11/29/[$LATEST]abc"));
        Set<String> snowid = new TreeSet<>(every.keySet());
        snowid.removeIf(name -> !name.startsWith("SNOWID_"));
        assertEquals(new TreeSet<>(FunctionSettings.NAMES), snowid, "this test sets every variable the catalogue declares");

        FunctionSettings settings = FunctionSettings.from(every);
        assertEquals(List.of(), settings.warnings(), "every variable set, every one read");
        assertEquals("ids.prod", settings.table());
        assertEquals(2, settings.pool().size());
        assertEquals(5_000, settings.leaseTerms().leaseMillis());
        assertEquals(0, settings.leaseTerms().maxClockSkewMillis());
        assertEquals(1600000000000L, settings.codec().epochMillis());
        assertArrayEquals(HexFormat.of().parseHex(hash.toLowerCase()), settings.leaseSecretHashes().get(0));
        assertArrayEquals(HexFormat.of().parseHex(next), settings.leaseSecretHashes().get(1));
        assertEquals(LeaseAuthMode.AWS_IAM, settings.leaseAuth());
        assertTrue(settings.leasePrincipals().admits("arn:aws:sts::123456789012:assumed-role/app/session"));
        assertEquals(1, settings.poolParts().agents().orElseThrow().size());
        assertEquals(FunctionRole.LEASES, settings.role());
        assertEquals("localhost", settings.dynamoDbEndpoint().orElseThrow().getHost());
        assertEquals(FunctionSettings.Metrics.EMF, settings.metrics());
        assertEquals("ids/prod", settings.metricsNamespace());
        assertEquals("ids-prod", settings.service());
        assertEquals("snowid/2026/11/29/[$LATEST]abc", settings.holder());
        assertEquals(Claimant.of("eu-west-1", "snowid-eu"), settings.region().claimant());
        assertEquals("snowid-registry", settings.region().registryTable().orElseThrow());
        assertEquals("us-east-1", settings.region().registryRegion().orElseThrow());
        assertEquals(8001, settings.region().registryEndpoint().orElseThrow().getPort());
        assertEquals(Block.of(1), settings.region().block().orElseThrow(), "datacenters 4-5 lie in block 1 (4-7)");
    }

    @Test
    void aGuardedPoolLiesInOneBlockAndTheRegistrySettingsComeTogether() {
        InvalidSettingException spans = assertThrows(InvalidSettingException.class, () -> FunctionSettings.from(Map.of(
                FunctionSettings.REGISTRY_TABLE, "snowid-registry", FunctionSettings.DATACENTERS, "2-5")));
        assertTrue(spans.getMessage().startsWith(FunctionSettings.DATACENTERS) && spans.getMessage().contains("0-3, 4-7"),
                spans.getMessage());
        assertEquals(Block.of(0), FunctionSettings.from(Map.of(FunctionSettings.REGISTRY_TABLE, "snowid-registry",
                FunctionSettings.DATACENTERS, "2-3")).region().block().orElseThrow());
        assertEquals(4 * 32, FunctionSettings.from(Map.of(FunctionSettings.DATACENTERS, "2-5")).pool().size(), "unguarded: any pool");
        InvalidSettingException alone = assertThrows(InvalidSettingException.class, () -> FunctionSettings.from(Map.of(
                FunctionSettings.REGISTRY_REGION, "eu-west-1")));
        assertTrue(alone.getMessage().startsWith(FunctionSettings.REGISTRY_TABLE), alone.getMessage());
        InvalidSettingException spaced = assertThrows(InvalidSettingException.class, () -> FunctionSettings.from(Map.of(
                FunctionSettings.REGION, "eu west")));
        assertTrue(spaced.getMessage().startsWith(FunctionSettings.REGION), spaced.getMessage());
        InvalidSettingException slashed = assertThrows(InvalidSettingException.class, () -> FunctionSettings.from(Map.of(
                FunctionSettings.STACK, "a/b")));
        assertTrue(slashed.getMessage().startsWith(FunctionSettings.STACK), slashed.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SNOWID_TABLE|ab|3 to 255",
        "SNOWID_TABLE|bad name!|3 to 255",
        "SNOWID_DATACENTERS|0-32|from 0 to 31",
        "SNOWID_DATACENTERS|3-1|0 <= a <= b <= 31",
        "SNOWID_DATACENTERS|a-b|'a-b'",
        "SNOWID_MACHINES|-1|from 0 to 31",
        "SNOWID_MACHINES|0-3-5|from 0 to 31",
        "SNOWID_LEASE_MILLIS|4999|5000 to 3600000",
        "SNOWID_LEASE_MILLIS|1m|whole number",
        "SNOWID_LEASE_MILLIS|3600001|5000 to 3600000",
        "SNOWID_MAX_CLOCK_SKEW_MILLIS|60001|0 to 60000",
        "SNOWID_MAX_CLOCK_SKEW_MILLIS|-5|whole number",
        "SNOWID_EPOCH_MILLIS|-1|whole number",
        "SNOWID_EPOCH_MILLIS|9223372036854775807|out of range",
        "SNOWID_EPOCH_MILLIS|4102444800000|in the future",
        "SNOWID_LEASE_SECRET_SHA256|abc|64 hex digits",
        "SNOWID_LEASE_SECRET_SHA256|zz86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08|hex",
        "SNOWID_DYNAMODB_ENDPOINT|localhost:8000|http(s) URL",
        "SNOWID_DYNAMODB_ENDPOINT|ftp://x|http(s) URL",
        "SNOWID_DYNAMODB_ENDPOINT|http://exa mple|not a URL",
        "SNOWID_METRICS|prometheus|'off'",
        "SNOWID_AGENT_SLOTS|128|from 0 to 127",
        "SNOWID_AGENT_SLOTS|-1|whole number",
        "SNOWID_AGENT_SLOTS|99999|whole number",
        "SNOWID_LEASE_AUTH|iam|'aws_iam'",
        "SNOWID_LEASE_SECRET_NEXT_SHA256|abc|64 hex digits",
    })
    void aBadValueNamesItsVariableAndWhatIsAllowed(String variable, String value, String allowed) {
        InvalidSettingException error = assertThrows(InvalidSettingException.class, () -> FunctionSettings.from(Map.of(variable, value)));
        assertEquals(variable, error.variable());
        assertTrue(error.getMessage().startsWith(variable + ": ") || error.getMessage().startsWith(variable + " "), error.getMessage());
        assertTrue(error.getMessage().contains(allowed), error.getMessage());
        assertEquals(List.of(), MessageProse.strayPunctuation(error.getMessage()));
    }

    @Test
    void aMessageThatGoesOnFromTheVariablesNameMakesOneSentenceWithIt() {
        InvalidSettingException empty = assertThrows(InvalidSettingException.class,
                () -> FunctionSettings.from(Map.of(FunctionSettings.LEASE_AUTH, "aws_iam")));
        assertTrue(empty.getMessage().startsWith(FunctionSettings.LEASE_PRINCIPALS + " is empty, and "), empty.getMessage());
        assertEquals(List.of(), MessageProse.strayPunctuation(empty.getMessage()));
        assertEquals("SNOWID_X: 'y' is not allowed", new InvalidSettingException("SNOWID_X", "'y' is not allowed").getMessage());
        assertEquals("SNOWID_X must be set", new InvalidSettingException("SNOWID_X", "must be set").getMessage());
        assertEquals("[weak_lease_secret] SNOWID_X is weak", new InvalidSettingException("SNOWID_X", "[weak_lease_secret] is weak")
                .getMessage(), "a coded message keeps its code first");
    }

    @Test
    void principalsOnlyApplyWithIamAsTheirDeclarationSays() {
        InvalidSettingException refused = assertThrows(InvalidSettingException.class,
                () -> FunctionSettings.from(Map.of(FunctionSettings.LEASE_PRINCIPALS, "arn:aws:iam::123456789012:role/app")));
        assertEquals(FunctionSettings.LEASE_PRINCIPALS, refused.variable());
        assertEquals("SNOWID_LEASE_PRINCIPALS only applies with SNOWID_LEASE_AUTH=aws_iam: bearer verifies no IAM caller; set"
                + " SNOWID_LEASE_AUTH=aws_iam (behind API Gateway IAM authorization), or leave SNOWID_LEASE_PRINCIPALS empty",
                refused.getMessage());
        assertEquals(List.of(), MessageProse.strayPunctuation(refused.getMessage()));
    }

    @Test
    void aNewSettingIsReadThroughTheCatalogueWithoutAnAccessorOfItsOwn() {
        FunctionSettings settings = FunctionSettings.from(Map.of(FunctionSettings.SERVICE, "orders"));
        for (Setting<?> setting : FunctionSettings.CATALOGUE.settings()) {
            settings.get(setting); // every declared setting reads, checked at init
        }
        assertEquals("orders", settings.service());
        assertThrows(IllegalArgumentException.class, () -> settings.get(Setting.named("SNOWID_UNDECLARED")));
    }

    @Test
    void aBadSecretHashShowsARecipeThatPrintsOnlyTheHash() {
        for (String value : new String[] {"abc", "zz86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}) {
            InvalidSettingException error = assertThrows(InvalidSettingException.class,
                    () -> FunctionSettings.from(Map.of(FunctionSettings.LEASE_SECRET_SHA256, value)));
            // sha256sum alone prints "<hash>  -", which is not 64 hex digits; an unset variable stops the command.
            assertTrue(error.getMessage().contains("printf %s \"${SNOWID_LEASE_SECRET:?set it first}\" | sha256sum | cut -d' ' -f1"),
                    error.getMessage());
        }
    }

    /** Issue 32: the hash an unset variable hashes to would open the lease routes to "Bearer " and nothing after it. */
    @Test
    void theEmptyStringsHashIsRefusedByNameInAnyLetterCaseForTheCurrentAndTheNextSecret() {
        String empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        String mixed = "E3b0C44298fc1c149AFBF4c8996fb92427ae41e4649b934ca495991b7852B855";
        for (String variable : new String[] {FunctionSettings.LEASE_SECRET_SHA256, FunctionSettings.LEASE_SECRET_NEXT_SHA256}) {
            for (String value : new String[] {empty, empty.toUpperCase(java.util.Locale.ROOT), mixed}) {
                InvalidSettingException error = assertThrows(InvalidSettingException.class,
                        () -> FunctionSettings.from(Map.of(variable, value)), variable + "=" + value);
                assertEquals(variable, error.variable());
                assertTrue(error.getMessage().startsWith("[empty_secret_hash] " + variable + " is the SHA-256 of the empty string: the"
                        + " secret's variable was unset or empty when it was hashed"), error.getMessage());
                assertTrue(error.getMessage().contains("${SNOWID_LEASE_SECRET:?set it first}"), error.getMessage());
                assertFalse(error.getMessage().contains(value), "the value is not echoed: " + error.getMessage());
                assertEquals(List.of(), MessageProse.strayPunctuation(error.getMessage()));
            }
        }
    }

    @Test
    void anEmptyVariableCountsAsUnset() {
        FunctionSettings settings = FunctionSettings.from(Map.of(FunctionSettings.LEASE_SECRET_SHA256, "", FunctionSettings.TABLE, ""));
        assertTrue(settings.leaseSecretHashes().isEmpty());
        assertEquals("snowid-leases", settings.table());
    }

    @Test
    void agentSlotsSplitThePoolAndUnsetSharesIt() {
        PoolParts shared = FunctionSettings.from(Map.of()).poolParts();
        assertTrue(!shared.split() && shared.function().size() == 128 && shared.agents().orElseThrow().size() == 128);
        PoolParts split = FunctionSettings.from(Map.of(FunctionSettings.AGENT_SLOTS, "32")).poolParts();
        assertEquals(96, split.function().size());
        assertEquals(32, split.agents().orElseThrow().size());
        assertTrue(split.agents().orElseThrow().contains(dev.snowid.Slot.of(3, 0)));
        assertTrue(FunctionSettings.from(Map.of(FunctionSettings.AGENT_SLOTS, "0")).poolParts().agents().isEmpty());
    }

    @Test
    void leaseAuthIsBearerUnlessToldIamAndBothSecretHashesAreKept() {
        assertEquals(LeaseAuthMode.BEARER, FunctionSettings.from(Map.of()).leaseAuth());
        assertEquals(LeaseAuthMode.AWS_IAM, FunctionSettings.from(Map.of(FunctionSettings.LEASE_AUTH, "AWS_IAM",
                FunctionSettings.LEASE_PRINCIPALS, "arn:aws:iam::123456789012:role/app")).leaseAuth());
        String a = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        String b = "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752";
        FunctionSettings both = FunctionSettings.from(Map.of(FunctionSettings.LEASE_SECRET_SHA256, a,
                FunctionSettings.LEASE_SECRET_NEXT_SHA256, b));
        assertEquals(2, both.leaseSecretHashes().size());
        assertArrayEquals(HexFormat.of().parseHex(b), both.leaseSecretHashes().get(1));
    }

    /** What the function does with its settings, as text: two settings that print alike act alike. */
    private static String observable(FunctionSettings settings) {
        return String.join(" | ", settings.table(), settings.poolDescription(), settings.pool().toString(),
                settings.leaseTerms().toString(), Long.toString(settings.codec().epochMillis()), settings.leaseAuth().toString(), settings.role().toString(), settings.poolParts().describeSplit(),
                settings.metrics().toString(), settings.metricsNamespace(), settings.service(),
                settings.dynamoDbEndpoint().toString(), Integer.toString(settings.leaseSecretHashes().size()),
                settings.region().claimant().toString());
    }

    @Test
    void theDocsSettingsTablesSayWhatTheCatalogueDeclares() {
        assertEquals(List.of(), SettingsTables.problems("function", FunctionSettings.CATALOGUE));
    }
}
