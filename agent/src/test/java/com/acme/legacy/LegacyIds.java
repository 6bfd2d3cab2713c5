package com.acme.legacy;

/**
 * A legacy ID source as found in old applications. Every original body prints a marker and
 * returns a value no Snowflake generator would: if the marker shows up in a redirected run, the
 * agent let the original body run.
 */
public final class LegacyIds {

    public static final String ORIGINAL_BODY_MARKER = "ORIGINAL-BODY-RAN";

    private static long counter;

    public static long nextLong() {
        System.out.println(ORIGINAL_BODY_MARKER + " nextLong");
        return -(++counter);
    }

    public Long nextBoxed() {
        System.out.println(ORIGINAL_BODY_MARKER + " nextBoxed");
        return -(++counter);
    }

    public String nextString(String prefix) {
        System.out.println(ORIGINAL_BODY_MARKER + " nextString");
        return prefix + "-" + (++counter);
    }

    /** Cannot hold a Snowflake ID: the agent must refuse it with a warning and leave it alone. */
    public static int nextInt() {
        return 42;
    }
}
