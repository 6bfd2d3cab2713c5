package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WireJsonTest {

    @Test
    void readsTheLeaseShape() {
        Map<String, Object> lease = WireJson.parse(" {\"slot\":237, \"datacenter\":7,\"machine\":13,\"owner\":\"9f\\u0041\\\"x\","
                + "\"fence\":3,\"floor\":0,\"expiresAt\":1700000060000,\"holder\":null,\"ok\":true} ");
        assertEquals(237L, lease.get("slot"));
        assertEquals("9fA\"x", lease.get("owner"));
        assertEquals(1700000060000L, lease.get("expiresAt"));
        assertTrue(lease.containsKey("holder") && lease.get("holder") == null);
        assertEquals(Boolean.TRUE, lease.get("ok"));
        assertTrue(WireJson.parse("{}").isEmpty());
    }

    @Test
    void writesWhatItReads() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("owner", "a\"b\\c\n");
        body.put("fence", 12L);
        body.put("lastIssued", 0L);
        String json = WireJson.write(body);
        assertEquals("{\"owner\":\"a\\\"b\\\\c\\n\",\"fence\":12,\"lastIssued\":0}", json);
        assertEquals(body, WireJson.parse(json));
    }

    @Test
    void escapesLineSeparatorsAndLoneSurrogatesButKeepsPairs() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("holder", "a\u2028b\u2029c");
        body.put("lone", "x\ud800y\udc00z\udbff");
        body.put("pair", "\ud83d\ude00");
        String json = WireJson.write(body);
        assertEquals("{\"holder\":\"a\\u2028b\\u2029c\",\"lone\":\"x\\ud800y\\udc00z\\udbff\",\"pair\":\"\ud83d\ude00\"}", json);
        assertEquals(body, WireJson.parse(json));
        for (char c = 0; c < 0x20; c++) {
            String escape = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : String.format("\\u%04x", (int) c);
            assertEquals("{\"c\":\"" + escape + "\"}", WireJson.write(singleton("c", String.valueOf(c))), "one escape rule with the function's");
        }
    }

    private static Map<String, Object> singleton(String key, Object value) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put(key, value);
        return map;
    }

    @Test
    void rejectsWhatIsNotTheExpectedShape() {
        for (String bad : new String[] {"", "[]", "{\"a\":1.5}", "{\"a\":{}}", "{\"a\":1} x", "{\"a\" 1}", "{\"a\":\"open", "{\"a\":99999999999999999999}",
            // what the hand-written parser let through, and the one reader refuses
            "{\"fence\":1,\"fence\":2}", "{\"a\":1}{}", "{\"a\":\"\u0001\"}", "{'a':1}", "{\"a\":[1]}", "{\"a\":1E3}", "{\"a\":-}"}) {
            assertThrows(IllegalArgumentException.class, () -> WireJson.parse(bad), bad);
        }
        for (String bad : new String[] {"{\"a\":[[1]]}", "{\"a\":[{\"b\":[1]}]}", "{\"a\":[{\"b\":{}}]}", "{\"a\":{}}"}) {
            assertThrows(IllegalArgumentException.class, () -> WireJson.parseWithLists(bad), bad);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WireJson.parse("[" + "[".repeat(10_000)));
        assertTrue(e.getMessage().startsWith("not the JSON expected: the text exceeds the limits"), e.getMessage());
    }
}
