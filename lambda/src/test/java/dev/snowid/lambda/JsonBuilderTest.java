package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.lambda.json.TestJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonBuilderTest {

    @Test
    void everyStringReadsBackAsWritten() {
        String[] values = {"plain", "quote \" backslash \\ slash /", "tab\tnewline\nreturn\r", "\u0000\u0001\u001f",
            "line\u2028separator", "emoji \uD83D\uDE00", "é ü ß 漢字"};
        for (String value : values) {
            String json = new JsonBuilder().field("v", value).end();
            assertEquals(value, TestJson.text(TestJson.parse(json), "v"), json);
        }
    }

    @Test
    void loneSurrogatesAreEscapedSoTheOutputStaysValid() {
        String json = new JsonBuilder().field("v", "a\uD800b").end();
        assertEquals("{\"v\":\"a\\ud800b\"}", json);
    }

    @Test
    void writesIdsAsStringsAndNestedValues() {
        String json = new JsonBuilder().idStrings("ids", new long[] {Long.MAX_VALUE, 0}).field("n", (Long) null)
                .stringMap("h", Map.of("k", "v")).stringArray("a", List.of("x", "y")).field("b", true).end();
        assertEquals("{\"ids\":[\"9223372036854775807\",\"0\"],\"n\":null,\"h\":{\"k\":\"v\"},\"a\":[\"x\",\"y\"],\"b\":true}", json);
    }
}
