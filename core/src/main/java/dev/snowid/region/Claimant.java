package dev.snowid.region;

/**
 * Who holds a claim: a region and one stack in it (a region with more than 128 holders runs a
 * second stack with another block). Both are names, for people and for the registry's
 * conditions: {@code eu-west-1} and the stack's name.
 */
public final class Claimant {

    private final String region;
    private final String stack;

    private Claimant(String region, String stack) {
        this.region = region;
        this.stack = stack;
    }

    /** @throws IllegalArgumentException when a name is blank or has characters other than printable ASCII */
    public static Claimant of(String region, String stack) {
        return new Claimant(name("region", region), name("stack", stack));
    }

    private static String name(String what, String value) {
        if (value == null || value.trim().isEmpty()) {
            throw new IllegalArgumentException("a claimant needs a " + what + " name");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c > '~' || c == '/') {
                throw new IllegalArgumentException("the " + what + " name '" + value + "' may hold printable ASCII only,"
                        + " without spaces or '/'");
            }
        }
        if (value.length() > 128) {
            throw new IllegalArgumentException("the " + what + " name is " + value.length() + " characters long; at most 128");
        }
        return value;
    }

    public String region() {
        return region;
    }

    public String stack() {
        return stack;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Claimant && ((Claimant) other).region.equals(region) && ((Claimant) other).stack.equals(stack);
    }

    @Override
    public int hashCode() {
        return region.hashCode() * 31 + stack.hashCode();
    }

    /** {@code "eu-west-1/snowid"}. */
    @Override
    public String toString() {
        return region + "/" + stack;
    }
}
