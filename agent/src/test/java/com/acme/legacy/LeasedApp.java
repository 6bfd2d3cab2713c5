package com.acme.legacy;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;

/**
 * {@code LeasedApp <ids file> <run millis, or 0 to run until killed or refused>}: takes IDs from
 * a legacy method in bursts and appends them to the file as it goes (so a killed run leaves
 * what it had). When the method throws because no ID can be issued, it prints
 * {@code UNAVAILABLE <message>} and exits with status 3.
 */
public final class LeasedApp {

    public static void main(String[] args) throws Exception {
        long runMillis = Long.parseLong(args[1]);
        long end = runMillis == 0 ? Long.MAX_VALUE : System.currentTimeMillis() + runMillis;
        long issued = 0;
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[0])))) {
            System.out.println("RUNNING");
            while (System.currentTimeMillis() < end) {
                for (int i = 0; i < 500; i++) {
                    long id;
                    try {
                        id = LegacyIds.nextLong();
                    } catch (RuntimeException e) {
                        out.flush();
                        System.out.println("UNAVAILABLE " + e.getClass().getSimpleName() + ": " + e.getMessage());
                        System.exit(3);
                        return;
                    }
                    out.writeLong(id);
                    issued++;
                }
                out.flush();
                Thread.sleep(5); // a steady trickle, not a saturated core on a shared machine
            }
        }
        System.out.println("DONE " + issued);
    }
}
