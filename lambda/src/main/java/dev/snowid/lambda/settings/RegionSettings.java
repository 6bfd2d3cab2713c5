package dev.snowid.lambda.settings;

import dev.snowid.lease.SlotPool;
import dev.snowid.region.Block;
import dev.snowid.region.Claimant;
import java.net.URI;
import java.util.Optional;

/**
 * Where this stack stands among regions: its region and stack name (what claims and decoded IDs
 * name), and the claim registry it is guarded by, if any. Without a registry the stack is a lone
 * one, unguarded: nothing stops another stack from leasing its block.
 */
public final class RegionSettings {

    private final Claimant claimant;
    private final String registryTable;
    private final String registryRegion;
    private final URI registryEndpoint;
    private final Block block;

    private RegionSettings(Claimant claimant, String registryTable, String registryRegion, URI registryEndpoint, Block block) {
        this.claimant = claimant;
        this.registryTable = registryTable;
        this.registryRegion = registryRegion;
        this.registryEndpoint = registryEndpoint;
        this.block = block;
    }

    /**
     * @throws InvalidSettingException naming the setting: a region or stack name that cannot be a claim's,
     *                                 or a guarded pool that spans two blocks
     */
    static RegionSettings of(String region, String stack, String registryTable, String registryRegion, URI registryEndpoint,
            SlotPool pool) {
        Claimant claimant;
        try {
            Claimant.of(region, "x");
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(FunctionSettings.REGION, e.getMessage());
        }
        try {
            claimant = Claimant.of(region, stack);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(FunctionSettings.STACK, e.getMessage());
        }
        if (registryTable == null && (registryRegion != null || registryEndpoint != null)) {
            throw new InvalidSettingException(FunctionSettings.REGISTRY_TABLE, "is unset, but "
                    + (registryRegion != null ? FunctionSettings.REGISTRY_REGION : FunctionSettings.REGISTRY_ENDPOINT)
                    + " is set: name the registry table too, or unset both for a lone (unguarded) stack");
        }
        Block block = null;
        if (registryTable != null) {
            try {
                block = Block.containing(pool);
            } catch (IllegalArgumentException e) {
                throw new InvalidSettingException(FunctionSettings.DATACENTERS, e.getMessage() + " (" + FunctionSettings.REGISTRY_TABLE
                        + " is set: the registry claims whole blocks)");
            }
        }
        return new RegionSettings(claimant, registryTable, registryRegion, registryEndpoint, block);
    }

    /** This stack's region and name. */
    public Claimant claimant() {
        return claimant;
    }

    /** Whether a registry guards this stack. */
    public boolean guarded() {
        return registryTable != null;
    }

    /** The registry table; empty for a lone stack. */
    public Optional<String> registryTable() {
        return Optional.ofNullable(registryTable);
    }

    /** The registry's home region; empty: the function's own. */
    public Optional<String> registryRegion() {
        return Optional.ofNullable(registryRegion);
    }

    /** An endpoint override of the registry (a local engine). */
    public Optional<URI> registryEndpoint() {
        return Optional.ofNullable(registryEndpoint);
    }

    /** The block the registry guards; empty for a lone stack. */
    public Optional<Block> block() {
        return Optional.ofNullable(block);
    }
}
