package dev.snowid.region;

import dev.snowid.Slot;
import dev.snowid.lease.SlotPool;
import java.util.List;

/**
 * A block: 4 consecutive datacenters from a multiple of 4 ({@code 0-3}, {@code 4-7}, …
 * {@code 28-31}), 4 x 32 = 128 slots. It is what a regional stack leases from and the unit the
 * claim registry hands out: one registry item per block, so a claim is one conditional write.
 * There are 8 blocks.
 */
public final class Block implements Comparable<Block> {

    /** Datacenters per block. */
    public static final int DATACENTERS = 4;
    /** Blocks in the ID layout: 32 datacenters / 4. */
    public static final int COUNT = (Slot.MAX_DATACENTER + 1) / DATACENTERS;
    /** What a block may be written as, in words: the one rule, for every setting and parameter that takes one. */
    public static final String ALLOWED = "one block of 4 datacenters: 0-3, 4-7, 8-11, 12-15, 16-19, 20-23, 24-27 or 28-31";

    private static final Block[] ALL = new Block[COUNT];

    static {
        for (int i = 0; i < COUNT; i++) {
            ALL[i] = new Block(i);
        }
    }

    private final int index;

    private Block(int index) {
        this.index = index;
    }

    /** Block {@code index}, 0 to 7. */
    public static Block of(int index) {
        if (index < 0 || index >= COUNT) {
            throw new IllegalArgumentException("block " + index + " does not exist; blocks are 0 to " + (COUNT - 1));
        }
        return ALL[index];
    }

    /** The block a datacenter lies in. */
    public static Block ofDatacenter(int datacenter) {
        if (datacenter < 0 || datacenter > Slot.MAX_DATACENTER) {
            throw new IllegalArgumentException("datacenter " + datacenter + " does not exist; datacenters are 0 to " + Slot.MAX_DATACENTER);
        }
        return ALL[datacenter / DATACENTERS];
    }

    /**
     * A block as a plan or a template parameter writes it: its datacenter range, e.g. {@code 4-7}.
     *
     * @throws IllegalArgumentException naming the value and {@link #ALLOWED}
     */
    public static Block parse(String datacenters) {
        String text = datacenters == null ? "" : datacenters.trim();
        for (Block block : ALL) {
            if (block.datacenters().equals(text)) {
                return block;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a block; allowed " + ALLOWED);
    }

    /**
     * The one block every slot of {@code pool} lies in: a claim covers a whole block, so a pool
     * that spans two blocks cannot be claimed by one write.
     *
     * @throws IllegalArgumentException naming the pool, when it spans more than one block
     */
    public static Block containing(SlotPool pool) {
        List<Slot> slots = pool.slots();
        Block first = ofDatacenter(slots.get(0).datacenter());
        Block last = ofDatacenter(slots.get(slots.size() - 1).datacenter());
        if (first != last) {
            throw new IllegalArgumentException("the pool " + pool + " spans " + first + " and " + last
                    + "; with a claim registry a pool lies within " + ALLOWED);
        }
        return first;
    }

    public int index() {
        return index;
    }

    public int firstDatacenter() {
        return index * DATACENTERS;
    }

    public int lastDatacenter() {
        return firstDatacenter() + DATACENTERS - 1;
    }

    /** {@code "4-7"}: the datacenters, as a plan and the template's {@code Datacenters} parameter write them. */
    public String datacenters() {
        return firstDatacenter() + "-" + lastDatacenter();
    }

    public boolean contains(Slot slot) {
        return slot != null && slot.datacenter() / DATACENTERS == index;
    }

    /** The block's 128 slots, datacenters x machines 0-31. */
    public SlotPool slots() {
        return SlotPool.of(firstDatacenter(), lastDatacenter(), 0, Slot.MAX_MACHINE);
    }

    @Override
    public int compareTo(Block other) {
        return Integer.compare(index, other.index);
    }

    /** {@code "block 1 (datacenters 4-7)"}. */
    @Override
    public String toString() {
        return "block " + index + " (datacenters " + datacenters() + ")";
    }
}
