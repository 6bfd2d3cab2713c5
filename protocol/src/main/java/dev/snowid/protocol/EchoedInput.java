package dev.snowid.protocol;

/**
 * How much of a caller's own input an answer or a message repeats back, and how: up to
 * {@value #MAX_CHARS} characters (a pair of surrogates counts as one and is never cut in two), then
 * an ellipsis; each character as it is, non-ASCII included, except one that is not printable
 * ({@link PrintableText}), which is written as its escape ({@code \u202E}). Enough to recognise
 * the mistake; a 10,000 character path or value does not come back whole, nor a control that
 * would garble the line it is read in.
 */
public final class EchoedInput {

    public static final int MAX_CHARS = 80;

    private EchoedInput() {
    }

    /** {@code text}, cut to {@value #MAX_CHARS} characters with "…" when longer, its unprintable characters escaped. */
    public static String shortened(String text) {
        if (text.codePointCount(0, text.length()) <= MAX_CHARS) {
            return PrintableText.escaped(text);
        }
        return PrintableText.escaped(text.substring(0, text.offsetByCodePoints(0, MAX_CHARS))) + "…";
    }
}
