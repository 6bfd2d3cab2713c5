package dev.snowid.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.snowid.ClockBehindException;
import dev.snowid.IdUnavailableException;
import dev.snowid.Slot;
import dev.snowid.lease.NoFreeSlotException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** What the MBean counts, on a scripted generator (pure logic; JMX itself: AgentJmxIT). */
class AgentMonitorTest {

    @Test
    void countsIdsAndRefusalsByTheApisReasonCodeAndPassesRefusalsOn() {
        Deque<Object> script = new ArrayDeque<>();
        script.add(1L);
        script.add(new NoFreeSlotException("full", 1000));
        script.add(2L);
        script.add(new ClockBehindException("the clock", 50, 5));
        script.add(new NoFreeSlotException("still full", 1000));
        LongSupplier scripted = () -> {
            Object next = script.removeFirst();
            if (next instanceof RuntimeException) {
                throw (RuntimeException) next;
            }
            return (Long) next;
        };
        AgentMonitor monitor = AgentMonitor.ofNode(scripted, Slot.of(7, 13));
        RedirectedCalls calls = new RedirectedCalls(2, monitor); // as the agent wires them: bridge → target's source → monitor
        monitor.countIssuedIn(calls);
        LongSupplier first = calls.sources()[0];
        LongSupplier second = calls.sources()[1];

        assertEquals(1L, first.getAsLong());
        IdUnavailableException full = assertThrows(NoFreeSlotException.class, first::getAsLong);
        assertEquals("full", full.getMessage(), "the caller gets the refusal itself");
        assertEquals(2L, second.getAsLong());
        assertThrows(ClockBehindException.class, second::getAsLong);
        assertThrows(NoFreeSlotException.class, first::getAsLong);

        assertEquals(2, monitor.getIdsIssued());
        assertEquals(1, calls.count(0), "per target");
        assertEquals(1, calls.count(1), "per target");
        TreeMap<String, Long> expected = new TreeMap<>();
        expected.put("clock_behind", 1L);
        expected.put("no_free_slot", 2L);
        assertEquals(expected, monitor.getRefusals());
        assertEquals("node", monitor.getMode());
        assertEquals("7:13", monitor.getSlot());
        assertEquals(-1, monitor.getLeaseMillisLeft());
        assertEquals(0, monitor.getRenewals());
    }
}
