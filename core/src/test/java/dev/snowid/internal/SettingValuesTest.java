package dev.snowid.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingValuesTest {

    private static final Setting<String> URL = Setting.named("X_URL").means("where");
    private static final Setting<String> MODE = Setting.named("X_MODE").byDefault("plain").means("how");
    private static final Setting<Long> MILLIS = Setting.named("X_MILLIS").in(NumberRange.of(5, 10, "ms"))
            .onlyWith(URL, "to a leased node (X_URL)").means("how long");
    private static final Setting<Boolean> AUDIT = Setting.named("X_AUDIT").asSwitch().byDefault("false")
            .onlyWith(URL, "to a leased node (X_URL)").aloneAtDefault().means("audit");
    private static final Setting<String> REGION = Setting.named("X_REGION").onlyWith(MODE, "signed", "with X_MODE=signed")
            .means("the region");
    private static final Setting<String> SECRET = Setting.named("X_SECRET").secret().means("the secret");
    private static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the thing", URL, MODE, MILLIS, AUDIT, REGION, SECRET);

    /** A refusal as text, so that the test can compare it: "X_MILLIS='4' — reason". */
    private static final SettingValues.Refusals WORDED = new SettingValues.Refusals() {
        @Override
        public RuntimeException invalid(Setting<?> setting, String text, String reason) {
            return new IllegalStateException(setting.shown(setting.name(), text) + " — " + reason);
        }

        @Override
        public RuntimeException inapplicable(Setting<?> setting, String text, String onlyApplies) {
            return new IllegalStateException(setting.shown(setting.name(), text) + " " + onlyApplies);
        }
    };

    private static SettingValues values(String... namesAndTexts) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < namesAndTexts.length; i += 2) {
            env.put(namesAndTexts[i], namesAndTexts[i + 1]);
        }
        return SettingValues.of(CATALOGUE, setting -> env.get(setting.name()), WORDED);
    }

    private static String refusal(SettingValues values) {
        return assertThrows(IllegalStateException.class, values::checkAll).getMessage();
    }

    @Test
    void valuesAreTypedAndDefaultsComeFromTheDeclaration() {
        SettingValues values = values("X_URL", "https://x", "X_MILLIS", "7", "X_AUDIT", "true").checkAll();
        assertEquals(Long.valueOf(7), values.get(MILLIS));
        assertEquals(Boolean.TRUE, values.get(AUDIT));
        assertEquals("plain", values.get(MODE));
        assertFalse(values.isSet(MODE));
        assertTrue(values.isSet(URL));
        assertNull(values("X_MILLIS", "").get(MILLIS), "empty counts as unset");
    }

    @Test
    void aBadValueIsRefusedNamingTheSettingAndWhatIsAllowed() {
        assertEquals("X_MILLIS='4' — '4' is out of range; allowed a whole number from 5 to 10 (ms)",
                refusal(values("X_URL", "https://x", "X_MILLIS", "4")));
        assertEquals("X_AUDIT='yes' — is not a switch: allowed true or false", refusal(values("X_AUDIT", "yes")));
    }

    @Test
    void aSettingThatOnlyAppliesWithAnotherIsRefusedWithoutIt() {
        assertEquals("X_MILLIS='abc' only applies to a leased node (X_URL)", refusal(values("X_MILLIS", "abc")),
                "where it does not apply, that is said first, before its value is read");
        assertEquals("X_AUDIT='true' only applies to a leased node (X_URL)", refusal(values("X_AUDIT", "true")));
        assertEquals("X_REGION='eu-west-1' only applies with X_MODE=signed", refusal(values("X_REGION", "eu-west-1")));
        assertEquals("eu-west-1", values("X_MODE", "signed", "X_REGION", "eu-west-1").checkAll().get(REGION));
    }

    @Test
    void aSwitchAtItsDefaultAsksNothing() {
        assertEquals(Boolean.FALSE, values("X_AUDIT", "false").checkAll().get(AUDIT));
    }

    @Test
    void aSecretsValueIsNeverInARefusal() {
        Setting<Long> secretNumber = Setting.named("X_PIN").in(NumberRange.of(0, 9, "")).secret();
        SettingValues values = SettingValues.of(SettingCatalogue.of("the thing", secretNumber), setting -> "hunter2", WORDED);
        String message = refusal(values);
        assertFalse(message.contains("hunter2"), message);
        assertTrue(message.startsWith("X_PIN=<secret, not shown>"), message);
    }

    @Test
    void aSettingOfAnotherCatalogueIsAMistake() {
        assertThrows(IllegalArgumentException.class, () -> values().get(Setting.named("X_OTHER")));
    }
}
