package dev.snowid.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClosestNameTest {

    private static final List<String> AGENT = Arrays.asList("snowid.node", "snowid.lease.url", "snowid.lease.secret",
            "snowid.lease.millis", "snowid.targets", "snowid.epoch", "snowid.onUnavailable");

    @Test
    void aTypoNamesTheSettingMeant() {
        assertEquals("snowid.targets", ClosestName.among("snowid.target", AGENT));
        assertEquals("snowid.node", ClosestName.among("snowid.nodes", AGENT));
        assertEquals("snowid.lease.millis", ClosestName.among("snowid.lease.milis", AGENT));
        assertEquals("snowid.onUnavailable", ClosestName.among("snowid.onunavailable", AGENT), "case is not a typo's measure");
        assertEquals("SNOWID_LEASE_MILLIS", ClosestName.among("SNOWID_LEASE_MILIS", Arrays.asList("SNOWID_TABLE", "SNOWID_LEASE_MILLIS")));
    }

    @Test
    void anotherWordIsNoTypo() {
        assertNull(ClosestName.among("snowid.color", AGENT));
        assertNull(ClosestName.among("snowid.datacenters", AGENT));
        assertNull(ClosestName.among("snowid.targets", AGENT), "a known name needs no suggestion");
    }

    @Test
    void theSuggestionReadsAsPartOfAMessage() {
        assertEquals("; did you mean `snowid.targets`?", ClosestName.didYouMean("snowid.target", AGENT));
        assertEquals("", ClosestName.didYouMean("snowid.color", AGENT));
    }
}
