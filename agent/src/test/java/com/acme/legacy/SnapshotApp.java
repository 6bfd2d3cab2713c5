package com.acme.legacy;

/**
 * {@code SnapshotApp <ids file>}: takes an ID, then a CRaC checkpoint and restore through
 * {@code org.crac} (the test's CRaC implementation runs the registered hooks, as SnapStart runs
 * them), then 1,000 IDs more, which it writes to the file.
 */
public final class SnapshotApp {

    public static void main(String[] args) throws Exception {
        System.out.println("BEFORE " + LegacyIds.nextLong());
        org.crac.Core.checkpointRestore();
        System.out.println("RESTORED");
        long[] ids = new long[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = LegacyIds.nextLong(); // the first ones wait (snowid.onUnavailable) for the lease taken after the restore
        }
        IdsOutput.write(args[0], ids);
        System.out.println("DONE " + ids.length);
    }
}
