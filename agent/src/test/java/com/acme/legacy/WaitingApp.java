package com.acme.legacy;

import java.io.File;

/**
 * {@code WaitingApp <ids file> <go file>}: a running application an operator attaches the agent
 * to with {@code jcmd <pid> JVMTI.agent_load …}. It calls the legacy method once (its own body
 * runs), prints {@code READY}, waits until the test creates the go file (after the attach), then
 * calls it again and writes those IDs.
 */
public final class WaitingApp {

    public static void main(String[] args) throws Exception {
        System.out.println("BEFORE " + LegacyIds.nextLong());
        System.out.println("READY");
        System.out.flush();
        File go = new File(args[1]);
        long deadline = System.currentTimeMillis() + 120_000;
        while (!go.exists()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("no go file " + go + " within 120 s");
            }
            Thread.sleep(10);
        }
        long[] ids = new long[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = LegacyIds.nextLong();
        }
        IdsOutput.write(args[0], ids);
        System.out.println("DONE " + ids.length);
    }
}
