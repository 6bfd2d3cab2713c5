package com.acme.legacy;

import java.io.Serializable;

/**
 * Legacy ID methods declared with the wider types real code uses. Each original body prints the
 * marker and returns something no redirected method may: if it shows, the agent let it run.
 */
public final class TypedIds {

    private TypedIds() {
    }

    public static Number nextNumber() {
        System.out.println(LegacyIds.ORIGINAL_BODY_MARKER + " nextNumber");
        return -1;
    }

    public static Comparable<?> nextComparable() {
        System.out.println(LegacyIds.ORIGINAL_BODY_MARKER + " nextComparable");
        return "legacy";
    }

    public static Object nextObject() {
        System.out.println(LegacyIds.ORIGINAL_BODY_MARKER + " nextObject");
        return new Object();
    }

    /** Redirected with the suffix :string. */
    public static Object nextObjectAsString() {
        System.out.println(LegacyIds.ORIGINAL_BODY_MARKER + " nextObjectAsString");
        return new Object();
    }

    public static Serializable nextSerializable() {
        System.out.println(LegacyIds.ORIGINAL_BODY_MARKER + " nextSerializable");
        return "legacy";
    }

    public static CharSequence nextChars() {
        System.out.println(LegacyIds.ORIGINAL_BODY_MARKER + " nextChars");
        return new StringBuilder("legacy");
    }

    /** Named with :string, which a long cannot hold: the agent must refuse it with a warning. */
    public static long nextLongAsString() {
        return 42;
    }
}
