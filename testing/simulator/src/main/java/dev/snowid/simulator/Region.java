package dev.snowid.simulator;

import dev.snowid.region.Claimant;
import java.util.ArrayList;
import java.util.List;

/** One region's stack: its claimant name, its lease table (replaced by a restore), its function environments and its holders. */
final class Region {

    final String name;
    final Claimant claimant;
    Table table;
    final List<FunctionEnv> envs = new ArrayList<>();
    final List<Holder> holders = new ArrayList<>();
    /** An operator is moving the block away or restoring the table: the stack serves nothing meanwhile. */
    boolean draining;
    /** The table was restored: its claim ends an hour and more ahead, so its holders may wait that long. */
    boolean restored;
    int envCount;

    Region(String name, Table table) {
        this.name = name;
        this.claimant = Claimant.of(name, "snowid");
        this.table = table;
    }
}
