package dev.snowid.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Punctuation that a message put together from parts gets wrong: a colon between a setting's name
 * and the verb that goes with it ({@code "SNOWID_LEASE_SECRET: is too weak"}), a space before a
 * comma, colon or semicolon, or two such marks in a row. Every front end's error messages are
 * read by people; the tests of each hold them to this.
 */
public final class MessageProse {

    private static final Pattern[] STRAY = {
        Pattern.compile(":\\s+(is|are|was|were|must|has|have|needs)\\b"),
        Pattern.compile("\\S\\s+[,;:](\\s|$)"),
        Pattern.compile("[,;]\\s*[,;:]|:\\s*[,;]|:\\s+:"), // "::" alone is an ARN's
    };

    private MessageProse() {
    }

    /** What is wrong with the punctuation of {@code message}; empty when nothing is. */
    public static List<String> strayPunctuation(String message) {
        List<String> problems = new ArrayList<>();
        for (Pattern stray : STRAY) {
            Matcher found = stray.matcher(message);
            while (found.find()) {
                problems.add("stray punctuation at «" + found.group() + "» in: " + message);
            }
        }
        return problems;
    }
}
