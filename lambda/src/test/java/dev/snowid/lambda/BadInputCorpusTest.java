package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.testing.InMemoryLeaseStore;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hundreds of client mistakes, each in both payload formats, through the real handler: every one
 * is a 4xx with a JSON {@code error} and {@code message}, none is a 5xx, none carries a stack
 * trace, and the lease the corpus attacks is still held afterwards. The subject is the answer, so
 * the lease table is in memory, held to the engine's conditions by {@code LeaseStoreContract};
 * the engine suites prove those conditions on the engines.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BadInputCorpusTest {

    /** A well-formed owner token nobody holds. */
    private static final String STRANGER = "0123456789abcdef0123456789abcdef";
    /** An acquisition id another holder claimed (its acquisition took no slot). */
    private static final String CLAIMED_ID = "5f0c9e3a1b7d42c8e6a0f19b3d5c7e21";

    private Function function;
    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private String owner;
    private long fence;
    private long slot;
    private final AtomicInteger served = new AtomicInteger();

    /** One malformed request, the status it must get, and (if not null) its error code and a part of its message. */
    record Case(String what, TestEvents.Request request, int status, String error, String messagePart) {
        Case(String what, TestEvents.Request request, int status, String error) {
            this(what, request, status, error, null);
        }
    }

    @BeforeAll
    void holdALease() {
        function = Functions.inMemory(store);
        Invocation lease = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
        assertEquals(201, lease.status(), lease::toString);
        owner = lease.text("owner");
        fence = lease.number("fence");
        slot = lease.number("slot");
        store.claim(CLAIMED_ID, "another holder", STRANGER, System.currentTimeMillis() + 60_000);
    }

    @AfterAll
    void close() {
        function.close();
    }

    @TestFactory
    @Order(1)
    Stream<DynamicTest> everyMalformedRequestIsA4xxWithErrorAndMessage() {
        List<Case> cases = corpus();
        assertTrue(cases.size() * 2 >= 200, "corpus size " + cases.size() * 2);
        return cases.stream().flatMap(c -> Stream.of(PayloadFormat.values()).map(format ->
                DynamicTest.dynamicTest(format.version() + " " + c.what() + ": " + c.request(), () -> check(c, format))));
    }

    @Test
    @Order(2)
    void theCorpusLeftTheLeaseAloneAndIssuedNothing() {
        assertTrue(served.get() >= 200, "requests served: " + served.get());
        Invocation renewed = function.call(TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + "}"), PayloadFormat.V2);
        assertEquals(200, renewed.status(), "the corpus's lease is still ours: " + renewed);
        assertEquals(1, store.rows().size(), "no /ids request of the corpus leased a slot for the function itself");
    }

    private void check(Case c, PayloadFormat format) {
        Invocation answer = function.call(c.request(), format);
        served.incrementAndGet();
        assertTrue(answer.status() >= 400 && answer.status() < 500, "4xx expected: " + answer);
        assertEquals(c.status(), answer.status(), answer::toString);
        assertEquals("application/json", answer.headers().get("Content-Type"), answer::toString);
        JsonValue body = answer.json();
        assertTrue(body.fields().isPresent(), answer.body());
        String error = body.field("error").flatMap(JsonValue::string).orElse("");
        String message = body.field("message").flatMap(JsonValue::string).orElse("");
        assertFalse(error.isEmpty(), "error code: " + answer.body());
        assertTrue(message.length() > 15, "a message saying what was wrong: " + answer.body());
        if (c.error() != null) {
            assertEquals(c.error(), error, answer::toString);
        }
        if (c.messagePart() != null) {
            assertTrue(message.contains(c.messagePart()), "message says " + c.messagePart() + ": " + answer.body());
        }
        assertFalse(answer.body().contains("Exception") || answer.body().contains("\tat ") || answer.body().contains("dev.snowid"),
                "no stack trace or class names: " + answer.body());
        assertSpeaksNoParser(answer.body());
        assertTrue(message.length() < 1_000, "a message says what was wrong, it does not echo the request: " + answer);
        if (answer.status() == 405) {
            assertTrue(answer.headers().containsKey("Allow"), "405 says what is allowed: " + answer);
        }
        if (answer.status() == 401) {
            assertTrue(answer.headers().containsKey("WWW-Authenticate"), answer::toString);
        }
    }

    private List<Case> corpus() {
        List<Case> cases = new ArrayList<>();
        counts(cases);
        queries(cases);
        ids(cases);
        bodies(cases);
        parserTraps(cases);
        claims(cases);
        slots(cases);
        methods(cases);
        routes(cases);
        auth(cases);
        fleet(cases);
        return cases;
    }

    private static void counts(List<Case> cases) {
        String[] queries = {"count=abc", "count=0", "count=4097", "count=-1", "count=%205", "count=+5", "count=1.5",
            "count=1&count=2", "count=", "count", "count=99999999999999999999", "count=0x10", "count=1e3", "count=%2B5",
            "count=5%20", "count=%EF%BC%95", "count=1,2", "count=null", "count=true", "count=%00", "count=-0",
            "count=4096.0", "count=NaN", "count=Infinity", "count=%E2%80%8B5", "count=2147483648", "count=%D9%A3",
            "count=4096&count=4096", "count=%095"};
        for (String query : queries) {
            for (String method : new String[] {"GET", "POST"}) {
                cases.add(new Case("bad count", TestEvents.request(method, "/ids").query(query), 400, null));
            }
        }
        // Non-ASCII is echoed as sent, what is not printable as its escape (EchoedInput).
        cases.add(new Case("a full-width digit", TestEvents.get("/ids").query("count=%EF%BC%95"), 400, "invalid_count", "count '５'"));
        cases.add(new Case("a bidi control", TestEvents.get("/ids").query("count=%E2%80%AE5"), 400, "invalid_count",
                "count '\\u202E5'"));
        cases.add(new Case("a line separator", TestEvents.get("/ids").query("count=5%E2%80%A8"), 400, "invalid_count",
                "count '5\\u2028'"));
        // A broken escape: payload 2.0 passes it raw (the handler refuses the encoding), 1.0 passes it as is.
        cases.add(new Case("broken escape", TestEvents.get("/ids").query("count=%zz"), 400, null));
        cases.add(new Case("broken escape", TestEvents.get("/ids").query("count=5%"), 400, null));
    }

    /** Query parameters a route does not take: refused, never ignored. */
    private void queries(List<Case> cases) {
        String[][] unknown = {{"GET", "/ids", "cnt=3", "did you mean count?"}, {"POST", "/ids", "cnt=3", "did you mean count?"},
            {"GET", "/ids", "COUNT=3", "did you mean count?"}, {"GET", "/ids", "count=3&cnt=3", "takes only count"},
            {"GET", "/ids", "size=3", "takes only count"}, {"GET", "/ids", "=3", "takes only count"},
            {"GET", "/ids/1724551110457221119", "a=b", "takes no query parameters"},
            {"GET", "/ids/1724551110457221119", "count=3", "takes no query parameters"},
            {"GET", "/health", "ts=1", "takes no query parameters"}, {"GET", "/leases", "x=1", "takes no query parameters"},
            {"POST", "/leases", "count=1", "takes no query parameters"}, {"PUT", "/leases/" + slot, "a=b", "takes no query parameters"},
            {"DELETE", "/leases/" + slot, "a", "takes no query parameters"}};
        for (String[] u : unknown) {
            cases.add(new Case("unknown query parameter", TestEvents.request(u[0], u[1]).query(u[2]).bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + ",\"lastIssued\":0}"), 400, "invalid_query", u[3]));
        }
    }

    private static void ids(List<Case> cases) {
        String[] paths = {"-1", "abc", "9223372036854775808", "99999999999999999999999", "+5", "%205", "1.5", "1e5", "0x10",
            "%20", "-0", "1%2C2", "%D9%A1%D9%A2", "12a", "%E2%80%8B1", "18446744073709551616", "--1", "1_000", "null",
            "%EF%BC%91", "1%00", "123456789012345678901234567890123456789012345678901234567890123456789"};
        for (String id : paths) {
            cases.add(new Case("bad id", TestEvents.get("/ids/" + id), 400, "invalid_id"));
        }
    }

    private void bodies(List<Case> cases) {
        String o = "\"owner\":\"" + owner + "\"";
        String[] bodies = {"{", "}", "[]", "null", "1", "\"x\"", "{\"owner\":}", "{'owner':'x','fence':1}",
            "{" + o + ",\"fence\":" + fence + "} trailing", "{" + o + ",\"fence\":" + fence + "}{}",
            "{" + o + ",\"fence\":1,\"fence\":" + fence + "}", "{\"owner\":123,\"fence\":" + fence + "}",
            "{" + o + ",\"fence\":\"" + fence + "\"}", "{" + o + ",\"fence\":1.5}", "{" + o + ",\"fence\":-1}",
            "{" + o + ",\"fence\":1e3}", "{" + o + ",\"fence\":99999999999999999999}", "{\"fence\":" + fence + "}", "{" + o + "}",
            "{\"owner\":null,\"fence\":" + fence + "}", "{\"owner\":\"XYZ\",\"fence\":" + fence + "}",
            "{\"owner\":\"\",\"fence\":" + fence + "}", "{" + o + ",\"fence\":true}",
            "{\"owner\":[\"" + owner + "\"],\"fence\":" + fence + "}", "{" + o + ",\"fence\":NaN}", "\u0000",
            "{" + o + ",\"fence\":" + fence, "{\"owner\":\"" + owner.toUpperCase() + "\",\"fence\":" + fence + "}",
            "{\"owner\":\"" + owner + " \",\"fence\":" + fence + "}", "{" + o + ",\"fence\":null}", "   "};
        for (String body : bodies) {
            cases.add(new Case("bad renew body", TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET).body(body), 400, null));
            cases.add(new Case("bad release body", TestEvents.request("DELETE", "/leases/" + slot).bearer(Functions.SECRET).body(body), 400, null));
        }
        String[] releaseOnly = {"{" + o + ",\"fence\":" + fence + "}", "{" + o + ",\"fence\":" + fence + ",\"lastIssued\":-1}",
            "{" + o + ",\"fence\":" + fence + ",\"lastIssued\":\"0\"}", "{" + o + ",\"fence\":" + fence + ",\"lastIssued\":1.0}",
            "{" + o + ",\"fence\":" + fence + ",\"lastIssued\":null}"};
        for (String body : releaseOnly) {
            cases.add(new Case("release without a usable lastIssued",
                    TestEvents.request("DELETE", "/leases/" + slot).bearer(Functions.SECRET).body(body), 400, null));
        }
        long epoch = dev.snowid.SnowflakeCodec.TWITTER_EPOCH_MILLIS;
        long[] outsideTheIdRange = {1, 1_700_000_000L /* seconds, not ms */, epoch - 1,
            dev.snowid.SnowflakeCodec.TWITTER.horizonMillis() + 1, Long.MAX_VALUE};
        for (long lastIssued : outsideTheIdRange) {
            cases.add(new Case("lastIssued outside the ms an ID can carry", TestEvents.request("DELETE", "/leases/" + slot)
                    .bearer(Functions.SECRET).body("{" + o + ",\"fence\":" + fence + ",\"lastIssued\":" + lastIssued + "}"),
                    400, "invalid_body", "not 0 (nothing issued) nor a unix ms from " + epoch));
        }
        cases.add(new Case("broken base64", TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                .brokenBase64Body("!!not base64!!"), 400, "invalid_body"));
        cases.add(new Case("body not UTF-8 JSON", TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                .base64Body(new byte[] {(byte) 0xff, (byte) 0xfe, '{', '}'}), 400, "invalid_json"));
        cases.add(new Case("holder not a string", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body("{\"holder\":42}"), 400, "invalid_body"));
        cases.add(new Case("holder too long", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body("{\"holder\":\"" + "h".repeat(201) + "\"}"), 400, "invalid_body"));
        cases.add(new Case("holder with a control character", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body("{\"holder\":\"a\\u0007b\"}"), 400, "invalid_body"));
        for (String spoof : new String[] {"2028", "2029", "202e", "202E", "2066", "200f", "200b", "feff", "0085", "d800"}) {
            cases.add(new Case("holder with U+" + spoof, TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                    .body("{\"holder\":\"orders\\u" + spoof + "-evil\"}"), 400, "invalid_body",
                    "has the character U+" + spoof.toUpperCase(java.util.Locale.ROOT)));
        }
        cases.add(new Case("holder with a raw U+202E", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body("{\"holder\":\"orders\u202e-evil\"}"), 400, "invalid_body", "has the character U+202E"));
        cases.add(new Case("acquire body not JSON", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body("holder=me"), 400, "invalid_json"));
        String[] notIds = {"00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff", "deadbeefdeadbeefdeadbeefdeadbeef",
            "01234560123456012345601234560123", "5F0C9E3A1B7D42C8E6A0F19B3D5C7E21", "5f0c9e3a1b7d42c8e6a0f19b3d5c7e2",
            "5f0c9e3a1b7d42c8e6a0f19b3d5c7e210", "5f0c9e3a-1b7d-42c8-e6a0-f19b3d5c7e21", " 5f0c9e3a1b7d42c8e6a0f19b3d5c7e2", ""};
        for (String id : notIds) {
            cases.add(new Case("requestId not an acquisition id", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                    .body("{\"holder\":\"corpus\",\"requestId\":\"" + id + "\"}"), 400, "invalid_body",
                    "requestId is not an acquisition id (32 lower-case hex digits, at least 8 of them different"));
        }
        cases.add(new Case("requestId not a string", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body("{\"requestId\":12345}"), 400, "invalid_body", "requestId is not a string"));
        cases.add(new Case("requestId another holder sent first", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body("{\"holder\":\"corpus\",\"requestId\":\"" + CLAIMED_ID + "\"}"), 409, "request_id_conflict",
                "first sent by another caller"));
    }

    /**
     * Bodies a JSON parser has its own words for (its limits, bad bytes, broken syntax): the answer
     * is a message of ours, never the parser's text, location or limit names.
     */
    private void parserTraps(List<Case> cases) {
        String o = "\"owner\":\"" + owner + "\"";
        String claim = o + ",\"fence\":" + fence;
        String[] bodies = {
            "{\"extra\":" + "[".repeat(5_000) + "]".repeat(5_000) + "," + claim + "}",
            "{\"extra\":" + "{\"a\":".repeat(2_000) + "1" + "}".repeat(2_000) + "," + claim + "}",
            "[".repeat(100_000),
            "{" + o + ",\"fence\":" + "9".repeat(5_000) + "}",
            "{" + o + ",\"fence\":1." + "0".repeat(5_000) + "}",
            "{" + o + ",\"fence\":1e999999999}",
            "{" + o + ",\"fence\":01}",
            "{" + o + ",\"fence\":-}",
            "{\"owner\":\"" + owner,
            "{\"owner\":\"" + owner + "\",\"fence\":",
            "{\"owner\":\"a\u0001b\",\"fence\":" + fence + "}",
            "{\"owner\":\"\\x41\",\"fence\":" + fence + "}",
            "{\"owner\":\"\\u12\",\"fence\":" + fence + "}",
            "/* comment */ {" + claim + "}",
            "{owner:\"" + owner + "\",\"fence\":" + fence + "}",
            "{" + claim + ",}",
            "{" + claim + "} /",
            "{" + claim + "}\u0000",
            "{\"" + "k".repeat(100_000) + "\":1," + claim + "}",
            "{\"extra\":\"" + "x".repeat(100_000) + "\"," + claim + "}",
            "{\"a\":1,\"a\":1," + claim + "}",
            "{\"extra\":[" + "1,".repeat(50_000) + "1]," + claim + "}",
        };
        for (String body : bodies) {
            cases.add(new Case("parser trap", TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET).body(body), 400, null));
            cases.add(new Case("parser trap", TestEvents.request("DELETE", "/leases/" + slot).bearer(Functions.SECRET).body(body), 400, null));
        }
        // The largest string a client can put in front of the function: Lambda takes events up to 6 MB.
        String fiveMiB = "h".repeat(5 * 1024 * 1024);
        cases.add(new Case("5 MiB string", TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body("{\"holder\":\"" + fiveMiB + "\"}"), 400, "invalid_json", "the body exceeds the limits: at most 16384 characters"));
        cases.add(new Case("5 MiB string", TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                .body("{" + claim + ",\"extra\":\"" + fiveMiB + "\"}"), 400, "invalid_json", "the body exceeds the limits"));
        // Bytes that are not UTF-8: a broken sequence, an overlong '/', a lone continuation byte, a cut-off
        // character, and the whole claim in UTF-16 (RFC 8259: JSON between systems is UTF-8).
        byte[][] notUtf8 = {
            utf8WithBytesAt("{" + o + ",\"fence\":" + fence + ",\"x\":\"#\"}", 0xc3, 0x28),
            utf8WithBytesAt("{" + o + ",\"fence\":" + fence + ",\"x\":\"#\"}", 0xc0, 0xaf),
            utf8WithBytesAt("{" + o + ",\"fence\":" + fence + ",\"x\":\"#\"}", 0x80),
            utf8WithBytesAt("{" + o + ",\"fence\":" + fence + ",\"x\":\"#", 0xe2, 0x82),
            utf16("{" + claim + "}"),
        };
        for (byte[] body : notUtf8) {
            cases.add(new Case("body not UTF-8", TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                    .base64Body(body), 400, "invalid_json", "the body is not UTF-8 text"));
        }
    }

    /** The text as UTF-8 with {@code #} replaced by the given raw bytes. */
    private static byte[] utf8WithBytesAt(String text, int... bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            if (b == '#') {
                for (int raw : bytes) {
                    out.write(raw);
                }
            } else {
                out.write(b);
            }
        }
        return out.toByteArray();
    }

    private static byte[] utf16(String text) {
        return text.getBytes(StandardCharsets.UTF_16);
    }

    /** None of a JSON parser's own words: its name, its limits' names, its locations. */
    private static void assertSpeaksNoParser(String rawBody) {
        for (String word : new String[] {"jackson", "StreamRead", "Source:", "line:", "column:", "CTRL-CHAR", "ALLOW_"}) {
            assertFalse(rawBody.toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)),
                    "parser text (" + word + ") in the answer: " + rawBody);
        }
    }

    /** Well-formed claims that do not match the lease: the store says no. */
    private void claims(List<Case> cases) {
        String[][] claims = {{STRANGER, Long.toString(fence)}, {owner, Long.toString(fence + 1)}, {owner, "0"},
            {STRANGER, "0"}, {owner, Long.toString(Long.MAX_VALUE)}};
        for (String[] claim : claims) {
            String body = "{\"owner\":\"" + claim[0] + "\",\"fence\":" + claim[1];
            cases.add(new Case("wrong claim", TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET).body(body + "}"),
                    409, "lease_lost"));
            cases.add(new Case("wrong claim", TestEvents.request("DELETE", "/leases/" + slot).bearer(Functions.SECRET)
                    .body(body + ",\"lastIssued\":0}"), 409, "lease_lost"));
        }
        long other = slot == 0 ? 1 : 0; // in the pool, not held by this claim
        cases.add(new Case("claim on another slot", TestEvents.request("PUT", "/leases/" + other).bearer(Functions.SECRET)
                .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + "}"), 409, "lease_lost"));
        cases.add(new Case("claim on another slot", TestEvents.request("DELETE", "/leases/" + other).bearer(Functions.SECRET)
                .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + ",\"lastIssued\":0}"), 409, "lease_lost"));
    }

    private void slots(List<Case> cases) {
        String[] slots = {"abc", "-1", "1024", "99999", "1.5", "%20", "", "200", "0x1", "+1", "1023"};
        for (String s : slots) {
            cases.add(new Case("no such slot", TestEvents.request("PUT", "/leases/" + s).bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + "}"), 404, "not_found"));
            cases.add(new Case("no such slot", TestEvents.request("DELETE", "/leases/" + s).bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + ",\"lastIssued\":0}"), 404, "not_found"));
        }
    }

    private static void methods(List<Case> cases) {
        String[][] wrong = {{"DELETE", "/ids"}, {"PUT", "/ids"}, {"PATCH", "/ids"}, {"OPTIONS", "/ids"}, {"HEAD", "/ids"},
            {"POST", "/ids/123"}, {"DELETE", "/ids/123"}, {"PUT", "/ids/123"}, {"PATCH", "/leases"}, {"PUT", "/leases"},
            {"DELETE", "/leases"}, {"GET", "/leases/0"}, {"POST", "/leases/0"}, {"PATCH", "/leases/0"}, {"POST", "/health"},
            {"DELETE", "/health"}, {"TRACE", "/health"}};
        for (String[] w : wrong) {
            cases.add(new Case("wrong method", TestEvents.request(w[0], w[1]).bearer(Functions.SECRET), 405, "method_not_allowed"));
        }
        // The gateway matches the method as sent: a lower-case one reached $default, and is never answered as the route.
        String[][] lowerCase = {{"get", "/ids"}, {"post", "/ids"}, {"Get", "/ids/1724551110457221119"}, {"post", "/leases"},
            {"get", "/leases"}, {"put", "/leases/0"}, {"delete", "/leases/0"}, {"get", "/health"}};
        for (String[] l : lowerCase) {
            cases.add(new Case("lower-case method", TestEvents.request(l[0], l[1]).bearer(Functions.SECRET), 405, "method_not_allowed",
                    "method " + l[0] + " is not allowed"));
        }
    }

    private static void routes(List<Case> cases) {
        String[] paths = {"/", "/id", "/ids/1/2", "/IDS", "/health/", "/leases/0/renew", "/foo", "/ids.json", "/api/ids",
            "//ids", "/leases//0", "/health%20"};
        for (String path : paths) {
            cases.add(new Case("unknown route", TestEvents.get(path), 404, "not_found"));
        }
        // Paths that only decode to a route reached $default: 404, never the route's answer (nor its auth's).
        for (String[] encoded : new String[][] {{"GET", "/%69ds"}, {"POST", "/%69%64%73"}, {"GET", "/i%64s/1724551110457221119"},
            {"GET", "/%68ealth"}, {"POST", "/%6Ceases"}, {"GET", "/lease%73"}, {"PUT", "/%6Ceases/0"}}) {
            cases.add(new Case("percent-encoded route", TestEvents.request(encoded[0], encoded[1]).bearer(Functions.SECRET), 404,
                    "not_found", "as sent"));
        }
        // An event naming $default is never answered as a route, whatever its path and method.
        for (String[] named : new String[][] {{"GET", "/ids"}, {"GET", "/health"}, {"POST", "/leases"}, {"GET", "/leases"}}) {
            cases.add(new Case("route key $default", TestEvents.request(named[0], named[1]).bearer(Functions.SECRET)
                    .routeKey("$default"), 404, "not_found"));
        }
        String[][] trailingSlash = {{"GET", "/ids/", "/ids"}, {"POST", "/ids/", "/ids"}, {"POST", "/leases/", "/leases"},
            {"GET", "/health/", "/health"}, {"GET", "/ids/1724551110457221119/", "/ids/1724551110457221119"}};
        for (String[] t : trailingSlash) {
            cases.add(new Case("trailing slash", TestEvents.request(t[0], t[1]).bearer(Functions.SECRET), 404, "not_found",
                    "no trailing slash: did you mean " + t[2] + "?"));
        }
    }

    private void auth(List<Case> cases) {
        String[] headers = {null, "Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "Bearer wrong", "bearer wrong",
            "Bearer " + Functions.SECRET + "x", "Token " + Functions.SECRET, "Bearer" + Functions.SECRET,
            "Bearer " + Functions.SECRET.toUpperCase()};
        for (String header : headers) {
            for (String[] route : new String[][] {{"POST", "/leases"}, {"PUT", "/leases/" + slot}, {"DELETE", "/leases/" + slot}}) {
                TestEvents.Request request = TestEvents.request(route[0], route[1])
                        .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + ",\"lastIssued\":0}");
                if (header != null) {
                    request.header("Authorization", header);
                }
                cases.add(new Case("bad auth", request, 401, "unauthorized"));
            }
        }
    }

    /** The slot map, IAM identities in a bearer deployment, and long runs of slashes. */
    private void fleet(List<Case> cases) {
        String claim = "{\"owner\":\"" + owner + "\",\"fence\":" + fence + ",\"lastIssued\":0}";
        String[][] leaseRoutes = {{"POST", "/leases"}, {"GET", "/leases"}, {"PUT", "/leases/" + slot}, {"DELETE", "/leases/" + slot}};
        for (String[] route : leaseRoutes) {
            for (String arn : new String[] {"arn:aws:iam::123456789012:user/forged", "", "   "}) {
                cases.add(new Case("IAM caller in a bearer deployment", TestEvents.request(route[0], route[1]).iamCaller(arn).body(claim),
                        401, "unauthorized", "no Authorization header"));
            }
            cases.add(new Case("IAM caller with a wrong secret", TestEvents.request(route[0], route[1]).iamCaller("arn:aws:iam::1:root")
                    .bearer("wrong").body(claim), 401, "unauthorized", "the bearer secret is wrong"));
        }
        cases.add(new Case("slot map without a secret", TestEvents.get("/leases"), 401, "unauthorized"));
        cases.add(new Case("slot map with a trailing slash", TestEvents.get("/leases/").bearer(Functions.SECRET), 404, "not_found",
                "did you mean /leases?"));
        cases.add(new Case("slot map of one slot", TestEvents.get("/leases/" + slot).bearer(Functions.SECRET), 405, "method_not_allowed"));
        cases.add(new Case("10,000 trailing slashes", TestEvents.get("/ids" + "/".repeat(10_000)), 404, "not_found",
                "did you mean /ids?"));
        cases.add(new Case("a path of slashes only", TestEvents.get("/".repeat(10_000)), 404, "not_found", "did you mean /?"));
        cases.add(new Case("slashes before the route", TestEvents.get("///ids"), 404, "not_found"));
    }

    @Test
    @Order(3)
    void eventsThatAreNotFromApiGatewayAre400() {
        for (String event : new String[] {"{}", "[]", "not json", "{\"version\":\"2.0\"}", "", "{\"httpMethod\":\"GET\"}",
            "[".repeat(100_000), "{\"version\":\"2.0\",\"rawPath\":\"/ids", "{\"httpMethod\":\"GET\",\"path\":\"/ids\"} x",
            "{\"httpMethod\":\"GET\",\"path\":\"/ids\",\"n\":" + "9".repeat(5_000) + "}"}) {
            Invocation answer = function.call(event);
            String shown = event.length() <= 200 ? event : event.substring(0, 200) + "…";
            assertEquals(400, answer.status(), shown + " -> " + answer);
            assertEquals("invalid_event", answer.text("error"), answer::toString);
            assertSpeaksNoParser(answer.body());
        }
    }

    @Test
    @Order(4)
    void anEncodedSlashInARawPathIsNoSeparator() {
        // Payload 2.0 passes the path as sent; a REST API (1.0) decodes it before the function sees it.
        Invocation route = function.call(TestEvents.get("/ids%2F1").v2());
        assertEquals(404, route.status(), route::toString);
        Invocation id = function.call(TestEvents.get("/ids/1%2F2").v2());
        assertEquals(400, id.status(), id::toString);
        assertEquals("invalid_id", id.text("error"));
    }
}
