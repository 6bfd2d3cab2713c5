package dev.snowid.lambda.settings;

import java.util.regex.Pattern;

/** An environment variable of the function has a value it cannot use; the message names the variable. */
public final class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    /** A message that goes on from the variable's name ("is empty, …") makes one sentence with it. */
    private static final Pattern GOES_ON = Pattern.compile("(is|are|must|has|needs) ");

    private final String variable;

    /** @param message what is wrong: a sentence of its own, or one that goes on from the variable's name ("is …") */
    public InvalidSettingException(String variable, String message) {
        super(variable + (GOES_ON.matcher(message).lookingAt() ? " " : ": ") + message);
        this.variable = variable;
    }

    /** The environment variable at fault. */
    public String variable() {
        return variable;
    }
}
