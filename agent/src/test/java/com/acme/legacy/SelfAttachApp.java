package com.acme.legacy;

import com.sun.tools.attach.VirtualMachine;
import java.lang.management.ManagementFactory;

/**
 * {@code SelfAttachApp <ids file> <agent jar> <node>}: calls the legacy method once before any
 * agent is there (its own body runs), then attaches the agent to itself at run time, as an
 * operator would to a running JVM, and calls it again: the already loaded class must have been
 * retransformed. Needs {@code -Djdk.attach.allowAttachSelf=true}.
 */
public final class SelfAttachApp {

    public static void main(String[] args) throws Exception {
        System.out.println("BEFORE " + LegacyIds.nextLong());
        System.setProperty("snowid.node", args[2]);
        System.setProperty("snowid.targets", "com.acme.legacy.LegacyIds#nextLong");
        String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
        VirtualMachine vm = VirtualMachine.attach(pid);
        try {
            vm.loadAgent(args[1]);
        } finally {
            vm.detach();
        }
        long[] ids = new long[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = LegacyIds.nextLong();
        }
        IdsOutput.write(args[0], ids);
        System.out.println("DONE " + ids.length);
    }
}
