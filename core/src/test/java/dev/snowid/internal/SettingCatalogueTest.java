package dev.snowid.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SettingCatalogueTest {

    private static final Setting<Long> PORT = Setting.named("X_PORT").in(NumberRange.of(0, 65_535, "")).byDefault("8080")
            .means("the port");
    private static final Setting<String> SECRET = Setting.named("X_SECRET").alsoNamed("x.secret").secret().means("the secret");
    private static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the thing", PORT, SECRET)
            .withHint("X_PASSWORD", "the thing reads X_SECRET");

    @Test
    void aSettingReadsItsDefaultWhenUnsetOrEmpty() {
        assertEquals(8080L, PORT.read(null));
        assertEquals(8080L, PORT.read(""));
        assertEquals(9090L, PORT.read("9090"));
        assertNull(SECRET.read(null), "no literal default");
        assertEquals(Arrays.asList("0", "65535"), PORT.allowedValues());
        assertEquals("'99999' is out of range; allowed a whole number from 0 to 65535",
                assertThrows(IllegalArgumentException.class, () -> PORT.read("99999")).getMessage());
    }

    @Test
    void eachUnknownNameIsWarnedAboutOnceWithTheClosestName() {
        List<String> warnings = CATALOGUE.unknownNames("environment variable",
                Arrays.asList("X_PROT", "X_PORT", "X_COLOUR", "X_PASSWORD", "OTHER", "X_ELSEWHERE"), "X_",
                CATALOGUE.names(), Collections.singletonList("X_ELSEWHERE"));
        assertEquals(Arrays.asList(
                "[unknown_setting] environment variable X_COLOUR is not a setting of the thing and is ignored; the thing reads [X_PORT, X_SECRET, x.secret]",
                "[unknown_setting] environment variable X_PASSWORD is not a setting of the thing and is ignored; the thing reads X_SECRET",
                "[unknown_setting] environment variable X_PROT is not a setting of the thing and is ignored; did you mean `X_PORT`?"), warnings);
        assertTrue(CATALOGUE.unknownNames("environment variable", Arrays.asList("X_PORT", "x.secret"), "X_").isEmpty());
    }

    @Test
    void aSecretsValueIsNeverShownNorThatOfATypoOfItsName() {
        assertEquals("X_PORT='80'", CATALOGUE.shown("X_PORT", "80"));
        assertEquals("X_SECRET=<secret, not shown>", CATALOGUE.shown("X_SECRET", "hunter2"));
        assertEquals("X_SECRT=<not shown>", CATALOGUE.shown("X_SECRT", "hunter2"));
        assertFalse(CATALOGUE.shown("x.secret", "hunter2").contains("hunter2"));
    }

    @Test
    void anUnknownNamesValueIsShownOnlyAsATypoOfASettingThatIsNotSecretAndNeverAUrlsUserInformation() {
        assertEquals("X_PROT='80'", CATALOGUE.shown("X_PROT", "80"), "a typo of the port: its value helps");
        for (String unknown : new String[] {"X_LEASE_TOKEN", "X_COLOUR", "X_API_KEY", "X_PORT_PASSWORD", "Y_AUTH"}) {
            assertEquals(unknown + "=<not shown>", CATALOGUE.shown(unknown, "hunter2"), unknown);
        }
        assertEquals("X_PORT='https://<not shown>@host:1/x'", CATALOGUE.shown("X_PORT", "https://me:hunter2@host:1/x"));
        assertEquals("see http://<not shown>@a and ftp://b/c@d", SecretText.withUrlSecretsHidden("see http://u:p@a and ftp://b/c@d"));
        assertEquals("https://h/p?<not shown> and https://h/#<not shown>",
                SecretText.withUrlSecretsHidden("https://h/p?token=hunter2 and https://h/#hunter2"));
        assertEquals("https://host/x", SecretText.withUrlSecretsHidden("https://host/x"));
    }

    /** Only text with a scheme's "://" is a URL to scrub (the patterns are compiled only then); any scheme, any case. */
    @Test
    void onlyTextWithASchemeIsScrubbed() {
        assertEquals("me:hunter2@host/p?token=x#y", SecretText.withUrlSecretsHidden("me:hunter2@host/p?token=x#y"));
        assertEquals("7:13", SecretText.withUrlSecretsHidden("7:13"));
        assertEquals("HTTPS://<not shown>@h/p?<not shown>", SecretText.withUrlSecretsHidden("HTTPS://u:p@h/p?token=x"));
        assertEquals("jdbc:h2:tcp://<not shown>@db", SecretText.withUrlSecretsHidden("jdbc:h2:tcp://sa:pw@db"));
        assertNull(SecretText.withUrlSecretsHidden(null));
    }

    @Test
    void aNameIsDeclaredOnce() {
        assertThrows(IllegalArgumentException.class, () -> SettingCatalogue.of("the thing", PORT, Setting.named("X_PORT")));
        assertTrue(CATALOGUE.reads("x.secret"));
        assertEquals(SECRET, CATALOGUE.setting("x.secret"));
    }
}
