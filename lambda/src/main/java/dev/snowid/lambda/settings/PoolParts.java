package dev.snowid.lambda.settings;

import dev.snowid.Slot;
import dev.snowid.lease.SlotPool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who leases from which slots. Split ({@value FunctionSettings#AGENT_SLOTS} set): the function's
 * environments lease only from the first part of the pool, {@code POST /leases} grants only from
 * the last {@code n} slots, so a client holding the secret can drain the agents' part and never
 * the function's, and the other way round. Shared (unset): both lease from the whole pool.
 *
 * @param agents empty when the split keeps no slot for agents
 */
public record PoolParts(SlotPool whole, SlotPool function, Optional<SlotPool> agents, boolean split) {

    /** Part names as the slot map ({@code GET /leases}) shows them. */
    public static final String FUNCTION = "function";
    public static final String AGENTS = "agents";
    public static final String SHARED = "shared";

    static PoolParts shared(SlotPool pool) {
        return new PoolParts(pool, pool, Optional.of(pool), false);
    }

    /** The last {@code agentSlots} slots for agents, the rest (at least one) for the function. */
    static PoolParts split(SlotPool pool, int agentSlots) {
        SlotPool function = pool.first(pool.size() - agentSlots);
        return new PoolParts(pool, function, agentSlots == 0 ? Optional.empty() : Optional.of(pool.last(agentSlots)), true);
    }

    /** Whether {@code PUT /leases/{slot}} may renew this slot: one the lease routes could have granted. */
    public boolean agentsMayHold(Slot slot) {
        return agents.isPresent() && agents.get().contains(slot);
    }

    /** Each part's name and slots, in table order. */
    public Map<String, List<Slot>> named() {
        Map<String, List<Slot>> parts = new LinkedHashMap<>();
        if (split) {
            parts.put(FUNCTION, function.slots());
            parts.put(AGENTS, agents.map(SlotPool::slots).orElse(List.of()));
        } else {
            parts.put(SHARED, whole.slots());
        }
        return parts;
    }

    /** For messages: "" when shared, else how the pool is split. */
    String describeSplit() {
        if (!split) {
            return "";
        }
        return agents.map(part -> "; slots " + part.slots().get(0) + " to " + part.slots().get(part.size() - 1) + " (" + part.size()
                + ") for POST /leases, the other " + function.size() + " for the function").orElse("; no slot is kept for POST /leases");
    }
}
