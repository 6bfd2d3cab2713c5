/**
 * Regions: several regional stacks, each with its own lease table, that can never issue from one
 * slot. The full text is {@code docs/protocol.md}, "Regions"; the guide {@code docs/multi-region.md}.
 *
 * <p>Every stack leases from one {@link dev.snowid.region.Block} (4 datacenters, 128 slots). A
 * {@link dev.snowid.region.ClaimRegistry} in one home region holds one item per block; a stack
 * claims its block with one conditional write there, bound to a fresh claim id and to its own
 * lease table's identity, records the claim id in that table ({@link dev.snowid.region.ClaimMarker}),
 * and leases only while the registry confirms that claim for that table
 * ({@link dev.snowid.region.RegionGuard}): the marker only caches it. A block changes hands only through an operator's
 * release ({@link dev.snowid.region.BlockHandover}): it retires every slot of the block in the old
 * region's table (no earlier holder can renew, nobody can acquire) and records the highest expiry
 * it found; the next claimant's slots start there. So IDs of one block from two regions fall in
 * disjoint time ranges, whatever the regions' clocks say, and the registry's claim history names
 * the region of every ID.
 */
package dev.snowid.region;
