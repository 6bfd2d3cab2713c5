package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import org.junit.jupiter.api.Test;

class HttpUrlTest {

    @Test
    void takesAnHttpsOrHttpBaseUrl() throws Exception {
        assertEquals(new URL("https://abc123.execute-api.eu-west-1.amazonaws.com/prod"),
                HttpUrl.parse("https://abc123.execute-api.eu-west-1.amazonaws.com/prod"));
        assertEquals(8000, HttpUrl.parse("http://localhost:8000").getPort());
    }

    @Test
    void saysWhatIsWrong() {
        assertEquals("uses 'ftp': only https (or http for a local runner) is allowed", refused("ftp://example.org/"));
        assertEquals("needs a host and no query or fragment: give the base URL only", refused("https://example.org/?stage=prod"));
        assertEquals("needs a host and no query or fragment: give the base URL only", refused("https://example.org/#top"));
        assertEquals("needs a host and no query or fragment: give the base URL only", refused("http:///leases"));
        assertTrue(refused("example.org").startsWith("is not a URL"), refused("example.org"));
        assertTrue(!refused("s3cretS3cret").contains("s3cret"), "the text is not quoted: it may be a secret given in a URL's place");
        assertTrue(refused("https://me:s3cret@example.org").startsWith("carries user information"), refused("https://me:s3cret@example.org"));
        assertEquals("https://<not shown>@example.org/p?<not shown>", HttpUrl.shown("https://me:s3cret@example.org/p?token=s3cret"));
        assertEquals("<not shown> (not a URL)", HttpUrl.shown("s3cretS3cret"));
        assertTrue(refused("http://exa mple").startsWith("is not a URL"), "a space no request line can carry");
    }

    @Test
    void loopbackIsThisMachineOnly() throws Exception {
        assertTrue(HttpUrl.isLoopback(new URL("http://localhost:8000")));
        assertTrue(HttpUrl.isLoopback(new URL("http://127.0.0.1:8000")));
        assertTrue(HttpUrl.isLoopback(new URL("http://[::1]:8000")));
        assertFalse(HttpUrl.isLoopback(new URL("http://10.0.0.1:8000")));
        assertFalse(HttpUrl.isLoopback(new URL("http://localhost.example.org")));
        assertTrue(HttpUrl.isLoopback(new URL("http://127.8.9.10:8000")), "all of 127.0.0.0/8");
        assertTrue(HttpUrl.isLoopback(new URL("http://LOCALHOST:8000")));
        assertTrue(HttpUrl.isLoopback(new URL("http://[0:0:0:0:0:0:0:1]:8000")));
        assertFalse(HttpUrl.isLoopback(new URL("http://127.attacker.example:8000")), "a name, not an address: DNS says where it goes");
        assertFalse(HttpUrl.isLoopback(new URL("http://127.0.0.1.nip.io:8000")));
        assertFalse(HttpUrl.isLoopback(new URL("http://[::ffff:10.0.0.1]:8000")));
    }

    /** Issue 32: the one rule for where a bearer secret may go. */
    @Test
    void aSecretGoesOverHttpsOrToLoopbackOrWhereTheOperatorOptedIn() throws Exception {
        HttpUrl.requireSafeForSecret(new URL("https://ids.example.org"), "u", false, "optIn=true");
        HttpUrl.requireSafeForSecret(new URL("http://127.0.0.1:8080"), "u", false, "optIn=true");
        HttpUrl.requireSafeForSecret(new URL("http://snowid:8080"), "u", true, "optIn=true");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> HttpUrl.requireSafeForSecret(new URL("http://127.attacker.example:8080"), "u='x'", false, "optIn=true"));
        assertEquals("[secret_over_plain_http] u='x' is plain http to 127.attacker.example, which is not this machine: the bearer secret"
                + " would cross the network unencrypted, for anyone on the way to read and use; use https, or, on a network you trust"
                + " (a runner reached by a compose service name), set optIn=true", refused.getMessage());
    }

    private static String refused(String typed) {
        return assertThrows(IllegalArgumentException.class, () -> HttpUrl.parse(typed), typed).getMessage();
    }
}
