package dev.snowid.protocol;

/**
 * A holder label ({@code "holder"} of {@code POST /leases}): who holds a lease, in the words the
 * slot map, the audit lines and {@code snowid leases} show a person. The one rule, for the
 * function that refuses others (400) and for the clients, which never send one it would refuse:
 * 1 to {@value #MAX_CHARS} characters, every one printable ({@link PrintableText}), so that no
 * label can hide, reorder (U+202E) or break (U+2028) the lines around it.
 */
public final class HolderLabel {

    public static final int MAX_CHARS = 200;
    /** What is allowed, for messages and the docs. */
    public static final String ALLOWED = "1 to " + MAX_CHARS + " printable characters (no control, format such as the bidi"
            + " control U+202E, or line separator such as U+2028)";

    private HolderLabel() {
    }

    /** What is wrong with {@code label}, or null when it is a holder label; never quotes it. */
    public static String problem(String label) {
        if (label == null || label.isEmpty()) {
            return "is empty";
        }
        if (label.length() > MAX_CHARS) {
            return "is " + label.length() + " characters long";
        }
        String unprintable = PrintableText.firstUnprintable(label);
        return unprintable == null ? null : "has the character " + unprintable + ", which is not printable";
    }

    /**
     * A label made from text nobody chose as one (a host name, an application's name): each
     * character that is not printable becomes '?', and it is cut to {@value #MAX_CHARS} characters.
     */
    public static String of(String text) {
        StringBuilder label = new StringBuilder(Math.min(text.length(), MAX_CHARS));
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            int chars = Character.charCount(codePoint);
            if (label.length() + chars > MAX_CHARS) {
                break;
            }
            if (PrintableText.isPrintable(codePoint)) {
                label.appendCodePoint(codePoint);
            } else {
                label.append('?');
            }
            i += chars;
        }
        return label.length() == 0 ? "?" : label.toString();
    }
}
