package dev.snowid.protocol;

/**
 * Which characters a person reading snowid's output sees as what they are: the one rule for
 * holder labels ({@link HolderLabel}) and for what a message repeats of a caller's input
 * ({@link EchoedInput}). Not printable: controls (Cc), format characters (Cf: the bidi controls
 * such as U+202E that reorder what follows, zero-width characters), line and paragraph
 * separators (U+2028, U+2029) and lone surrogates. Each can make a line read as something it
 * is not. Unassigned code points are let through: a newer JVM may know them as letters.
 */
public final class PrintableText {

    private PrintableText() {
    }

    /** Whether {@code codePoint} shows as itself. */
    public static boolean isPrintable(int codePoint) {
        switch (Character.getType(codePoint)) {
            case Character.CONTROL:
            case Character.FORMAT:
            case Character.LINE_SEPARATOR:
            case Character.PARAGRAPH_SEPARATOR:
            case Character.SURROGATE:
                return false;
            default:
                return true;
        }
    }

    /** The first character of {@code text} that is not printable, as {@code U+202E}; null when there is none. */
    public static String firstUnprintable(String text) {
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            if (!isPrintable(codePoint)) {
                return String.format("U+%04X", codePoint);
            }
            i += Character.charCount(codePoint);
        }
        return null;
    }

    /** {@code text} with each character that is not printable written as its escape, {@code \u202E}: faithful, and inert. */
    public static String escaped(String text) {
        StringBuilder shown = null;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            int chars = Character.charCount(codePoint);
            if (!isPrintable(codePoint)) {
                if (shown == null) {
                    shown = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                for (int unit = i; unit < i + chars; unit++) {
                    shown.append(String.format("\\u%04X", (int) text.charAt(unit)));
                }
            } else if (shown != null) {
                shown.append(text, i, i + chars);
            }
            i += chars;
        }
        return shown == null ? text : shown.toString();
    }
}
