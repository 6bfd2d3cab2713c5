package dev.snowid.protocol;

/**
 * How much of a caller's own input an answer or a message repeats back: up to
 * {@value #MAX_CHARS} characters, then an ellipsis. Enough to recognise the mistake; a 10,000
 * character path or value does not come back whole.
 */
public final class EchoedInput {

    public static final int MAX_CHARS = 80;

    private EchoedInput() {
    }

    /** {@code text}, cut to {@value #MAX_CHARS} characters with "…" when longer. */
    public static String shortened(String text) {
        return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS) + "…";
    }
}
