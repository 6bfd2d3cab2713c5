package dev.snowid.protocol.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    void everyStringReadsBackAsWritten() throws MalformedJson {
        String[] values = {"plain", "quote \" backslash \\ slash /", "tab\tnewline\nreturn\r", "\u0000\u0001\u001f\b\f",
            "line\u2028separator", "emoji \uD83D\uDE00", "é ü ß 漢字", "lone \uD800 and pair \uD83D\uDE00"};
        for (String value : values) {
            String json = new JsonWriter().field("v", value).end();
            assertEquals(value, new JsonReader(new JsonReader.Limits(4, 64, 8, 256)).read(json).field("v").flatMap(JsonValue::string).orElseThrow(), json);
        }
    }

    @Test
    void escapesAsTheFunctionAlwaysHas() {
        // Jackson's own defaults differ in each of these: \b, \f, upper-case hex, raw U+2028/2029, raw lone surrogates.
        assertEquals("{\"v\":\"\\u0008\\u000c\\u0001\\u001f\\n\\r\\t\\\"\\\\/\"}",
                new JsonWriter().field("v", "\b\f\u0001\u001f\n\r\t\"\\/").end());
        assertEquals("{\"v\":\"a\\u2028b\\u2029c\"}", new JsonWriter().field("v", "a\u2028b\u2029c").end());
        assertEquals("{\"v\":\"é漢\uD83D\uDE00\"}", new JsonWriter().field("v", "é漢\uD83D\uDE00").end(), "non-ASCII and pairs stay raw");
    }

    @Test
    void aJsonStringEscapesWhatJavaScriptAndStrictReadersNeed() {
        // Once protocol's own JsonString, whose rule wrote a line feed as six characters; the one writer keeps the function's rule.
        assertEquals("{\"v\":\"a\\\"b\\\\c\\n\\u0008\\u2028\"}", new JsonWriter().field("v", "a\"b\\c\n\b\u2028").end());
        assertEquals("{\"v\":\"\\ud800x\"}", new JsonWriter().field("v", "\ud800x").end(), "a lone surrogate is escaped");
        assertEquals("{\"v\":\"\ud83d\ude00\"}", new JsonWriter().field("v", "\ud83d\ude00").end(), "a well-formed pair stays");
        assertEquals("{\"v\":\"é/<\"}", new JsonWriter().field("v", "é/<").end());
    }

    @Test
    void loneSurrogatesAreEscapedSoTheOutputStaysValid() {
        assertEquals("{\"v\":\"a\\ud800b\"}", new JsonWriter().field("v", "a\uD800b").end());
        assertEquals("{\"v\":\"\\udc00\"}", new JsonWriter().field("v", "\uDC00").end());
        assertEquals("{\"\\ud800\":\"x\",\"w\":\"\uD83D\uDE00\"}", new JsonWriter().field("\uD800", "x").field("w", "\uD83D\uDE00").end(),
                "the switch is per string: a later well-formed pair stays raw");
    }

    @Test
    void writesIdsAsStringsAndNestedValues() {
        String json = new JsonWriter().idStrings("ids", new long[] {Long.MAX_VALUE, 0}).field("n", (Long) null)
                .stringMap("h", Map.of("k", "v")).stringArray("a", List.of("x", "y")).field("b", true)
                .object("o").array("l").objectElement().field("x", 1).close().arrayElement().element("y").close().close().close()
                .rawField("r", "1.5").end();
        assertEquals("{\"ids\":[\"9223372036854775807\",\"0\"],\"n\":null,\"h\":{\"k\":\"v\"},\"a\":[\"x\",\"y\"],\"b\":true,"
                + "\"o\":{\"l\":[{\"x\":1},[\"y\"]]},\"r\":1.5}", json);
    }
}
