package dev.snowid.agent.cli;

import dev.snowid.lease.HeldSlot;
import dev.snowid.protocol.RegionClaims;
import dev.snowid.protocol.SlotMap;
import dev.snowid.region.Block;
import dev.snowid.region.BlockHandover;
import dev.snowid.region.Claimant;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every region's slot map and the claim registry's claims together ({@code leases <url> <url> …}):
 * each stack's grid, then the claims in force, then every block whose live leases and claim
 * disagree (a stack leasing from a block the registry gives to someone else, or to nobody).
 * Retired slots (a released block's, whose leases never run out) issue nothing and are not counted.
 */
final class FleetView {

    /** One stack's slot map, as its URL answered it. */
    static final class Stack {
        final String url;
        final SlotMap map;

        Stack(String url, SlotMap map) {
            this.url = url;
            this.map = map;
        }
    }

    private FleetView() {
    }

    /** The view; {@code disagreements} receives one line per disagreement. */
    static String render(List<Stack> stacks, List<String> disagreements) {
        StringBuilder out = new StringBuilder();
        RegionClaims registry = null;
        for (Stack stack : stacks) {
            RegionClaims region = stack.map.region();
            out.append("== ").append(stack.url);
            if (region != null) {
                out.append(": ").append(region.self()).append(", ").append(region.guard());
                registry = registry == null && region.claims() != null ? region : registry;
            }
            out.append('\n').append(SlotGrid.render(stack.map));
        }
        if (registry == null) {
            out.append("claims: none of these stacks reads a claim registry (unguarded, or it could not be read)\n");
            return out.toString();
        }
        out.append("claims in the registry (as ").append(registry.self()).append(" read it):\n");
        for (RegionClaims.Row claim : registry.claims()) {
            out.append(String.format("  %-28s %-32s IDs from %s%n", claim.block(), claim.claimant(), Instant.ofEpochMilli(claim.from())));
        }
        for (Stack stack : stacks) {
            disagreements.addAll(disagreements(stack, registry));
        }
        for (String line : disagreements) {
            out.append("DISAGREE ").append(line).append('\n');
        }
        if (disagreements.isEmpty()) {
            out.append("every live lease lies in a block the registry gives to its own stack\n");
        }
        return out.toString();
    }

    private static List<String> disagreements(Stack stack, RegionClaims registry) {
        List<String> found = new ArrayList<>();
        RegionClaims region = stack.map.region();
        if (region == null) {
            found.add(stack.url + " names no region (a function before regions): its leases cannot be checked");
            return found;
        }
        Map<Block, Integer> live = new TreeMap<>();
        for (SlotMap.Entry entry : stack.map.leases()) {
            HeldSlot lease = entry.lease();
            if (lease.heldAt(stack.map.now()) && lease.expiresAt() < BlockHandover.RETIRED_UNTIL) {
                Block block = Block.ofDatacenter(lease.slot().datacenter());
                Integer count = live.get(block);
                live.put(block, count == null ? 1 : count + 1);
            }
        }
        for (Map.Entry<Block, Integer> block : live.entrySet()) {
            RegionClaims.Row claim = registry.claimOf(block.getKey());
            Claimant owner = claim == null ? null : claim.claimant();
            if (!region.self().equals(owner)) {
                found.add(block.getKey() + ": " + region.self() + " holds " + block.getValue() + " live "
                        + (block.getValue() == 1 ? "lease" : "leases") + " in it, but the registry gives it to "
                        + (owner == null ? "nobody" : owner.toString()));
            }
        }
        return found;
    }
}
