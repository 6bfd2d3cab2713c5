package dev.snowid.protocol.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.protocol.json.MalformedJson.Reason;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

    private static final JsonReader.Limits SMALL = new JsonReader.Limits(4, 32, 8, 256);
    private final JsonReader reader = new JsonReader(SMALL);

    /** The pom's second run of these tests puts the oldest jackson-core the client accepts on the class path: it did. */
    @Test
    void runsOnTheJacksonCoreTheBuildPutOnTheClassPath() {
        String expected = System.getProperty("snowid.jacksonCore", com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString());
        assertEquals(expected, com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString());
    }

    @Test
    void readsEveryKindOfValueAndKeepsNumbersAsWritten() throws MalformedJson {
        JsonValue value = reader.read(utf8("{\"s\":\"a\\u00e9\\n\",\"i\":-0,\"f\":1.50,\"e\":1E3,\"t\":true,\"n\":null,\"a\":[1,\"x\",{}]}"));
        assertEquals("a\u00e9\n", value.field("s").flatMap(JsonValue::string).orElseThrow());
        assertEquals("-0", value.field("i").flatMap(JsonValue::number).orElseThrow());
        assertEquals("1.50", value.field("f").flatMap(JsonValue::number).orElseThrow());
        assertEquals("1E3", value.field("e").flatMap(JsonValue::number).orElseThrow());
        assertEquals(true, value.field("t").flatMap(JsonValue::bool).orElseThrow());
        assertTrue(value.field("n").orElseThrow().isNull());
        List<JsonValue> items = value.field("a").flatMap(JsonValue::items).orElseThrow();
        assertEquals("1", items.get(0).number().orElseThrow());
        assertEquals("x", items.get(1).string().orElseThrow());
        assertEquals(Map.of(), items.get(2).fields().orElseThrow());
        assertEquals(List.of("s", "i", "f", "e", "t", "n", "a"), List.copyOf(value.fields().orElseThrow().keySet()),
                "fields in the order written");
        assertTrue(value.field("missing").isEmpty());
        assertTrue(value.field("s").orElseThrow().field("x").isEmpty(), "a string has no fields");
    }

    @Test
    void aWholeDocumentIsOneValue() throws MalformedJson {
        assertEquals("x", reader.read(utf8("  \"x\" \n")).string().orElseThrow());
        assertEquals(Map.of(), reader.read(utf8("{}")).fields().orElseThrow());
        assertEquals(Map.of(), reader.read(utf8("\uFEFF{}")).fields().orElseThrow(), "a leading byte order mark is allowed");
        assertReason(Reason.NOT_JSON, "\uFEFF\uFEFF{}");
        assertReason(Reason.EMPTY, "");
        assertReason(Reason.EMPTY, " \r\n\t");
        assertReason(Reason.MORE_THAN_ONE_VALUE, "{}{}");
        assertReason(Reason.MORE_THAN_ONE_VALUE, "1 2");
        assertReason(Reason.TEXT_AFTER_VALUE, "{} junk");
        assertReason(Reason.TEXT_AFTER_VALUE, "{}]");
    }

    @Test
    void aRepeatedKeyIsRefusedAtAnyDepth() {
        MalformedJson top = assertReason(Reason.REPEATED_NAME, "{\"fence\":1,\"fence\":2}");
        assertEquals("repeats the key \"fence\"", top.what());
        assertReason(Reason.REPEATED_NAME, "{\"a\":{\"b\":1,\"b\":1}}");
        MalformedJson longName = assertReason(Reason.REPEATED_NAME, "{\"" + "k".repeat(30) + "\":1,\"" + "k".repeat(30) + "\":1}");
        assertEquals("repeats the key \"" + "k".repeat(30) + "\"", longName.what());
    }

    @Test
    void onlyStandardJsonInUtf8() {
        for (String text : new String[] {"{'a':1}", "{a:1}", "[1,]", "{\"a\":1,}", "01", "NaN", "-", "1.", ".5", "+1",
            "/* c */ 1", "\"a\u0001\"", "\"\\x41\"", "\"\\u12\"", "\"open", "{\"a\":", "[", "tru", "\u0000"}) {
            assertReason(Reason.NOT_JSON, text);
        }
        assertEquals(Reason.NOT_UTF8, assertThrows(MalformedJson.class,
                () -> reader.read(new byte[] {'"', (byte) 0xc3, 0x28, '"'})).reason());
        assertEquals(Reason.NOT_UTF8, assertThrows(MalformedJson.class,
                () -> reader.read("\"x\"".getBytes(StandardCharsets.UTF_16))).reason(), "UTF-16 is not guessed");
    }

    @Test
    void limitsRefuseDepthLengthAndSizeInOurWords() throws MalformedJson {
        reader.read(utf8("[[[[1]]]]"));
        reader.read(utf8("\"" + "s".repeat(32) + "\""));
        reader.read(utf8("12345678"));
        String[] beyond = {"[[[[[1]]]]]", "\"" + "s".repeat(33) + "\"", "{\"" + "k".repeat(33) + "\":1}", "123456789",
            "1." + "0".repeat(9), "[" + "1,".repeat(200) + "1]", "[".repeat(100_000)};
        for (String text : beyond) {
            MalformedJson e = assertReason(Reason.OVER_LIMITS, text);
            assertEquals("exceeds the limits: at most 256 characters, 4 levels of nesting, strings of at most 32 characters, "
                    + "numbers of at most 8 digits", e.what());
        }
    }

    @Test
    void noMessageCarriesParserText() {
        String[] texts = {"{'a':1}", "/* c */ 1", "\"a\u0001\"", "[".repeat(10), "9".repeat(20), "{} x", "NaN", "{\"a\":1,\"a\":2}"};
        for (String text : texts) {
            String what = assertThrows(MalformedJson.class, () -> reader.read(utf8(text))).what().toLowerCase(Locale.ROOT);
            for (String word : new String[] {"jackson", "streamread", "source:", "line:", "column:", "token", "feature"}) {
                assertFalse(what.contains(word), text + " -> " + what);
            }
        }
    }

    private MalformedJson assertReason(Reason reason, String text) {
        MalformedJson e = assertThrows(MalformedJson.class, () -> reader.read(utf8(text)), text);
        assertEquals(reason, e.reason(), text + " -> " + e.what());
        return e;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
