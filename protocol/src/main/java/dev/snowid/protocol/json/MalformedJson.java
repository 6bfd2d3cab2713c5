package dev.snowid.protocol.json;

/**
 * Why a text is not the JSON a {@link JsonReader} takes, in fixed words of ours: never the
 * parser's message, location or limit names, so it can be shown to whoever sent the text.
 */
public final class MalformedJson extends Exception {

    private static final long serialVersionUID = 1L;

    /** Names longer than this are not repeated back: a message says what was wrong, it does not echo. */
    private static final int MAX_NAME_SHOWN = 64;

    public enum Reason {
        EMPTY("is empty"), NOT_UTF8("is not UTF-8 text"), NOT_JSON("is not valid JSON"), REPEATED_NAME("repeats a key"),
        MORE_THAN_ONE_VALUE("holds more than one JSON value"), TEXT_AFTER_VALUE("has text after its JSON value"),
        OVER_LIMITS("exceeds the limits");

        private final String what;

        Reason(String what) {
            this.what = what;
        }
    }

    private final Reason reason;

    private MalformedJson(Reason reason, String what) {
        super(what, null, false, false); // an answer to bad input, not a fault: no stack trace
        this.reason = reason;
    }

    static MalformedJson of(Reason reason) {
        return new MalformedJson(reason, reason.what);
    }

    /** @param limits the limits exceeded, as the reader describes them */
    static MalformedJson overLimits(String limits) {
        return new MalformedJson(Reason.OVER_LIMITS, "exceeds the limits: " + limits);
    }

    static MalformedJson repeatedName(String name) {
        return name.length() <= MAX_NAME_SHOWN
                ? new MalformedJson(Reason.REPEATED_NAME, "repeats the key \"" + name + "\"")
                : of(Reason.REPEATED_NAME);
    }

    public Reason reason() {
        return reason;
    }

    /** What is wrong, worded to follow a subject: "the body " + what(). */
    public String what() {
        return getMessage();
    }
}
