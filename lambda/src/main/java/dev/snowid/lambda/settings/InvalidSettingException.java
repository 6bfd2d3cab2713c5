package dev.snowid.lambda.settings;

import dev.snowid.internal.ProblemCode;
import java.util.regex.Pattern;

/** An environment variable of the function has a value it cannot use; the message names the variable. */
public final class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    /** A message that goes on from the variable's name ("is empty, …") makes one sentence with it. */
    private static final Pattern GOES_ON = Pattern.compile("(is|are|must|has|needs|only) ");

    private final String variable;

    /**
     * @param message what is wrong: a sentence of its own, or one that goes on from the variable's name ("is …"); a
     *                message that starts with a code ({@code [code] is …}) keeps it first, before the name
     */
    public InvalidSettingException(String variable, String message) {
        super(sentence(variable, message));
        this.variable = variable;
    }

    private static String sentence(String variable, String message) {
        String code = ProblemCode.codeOf(message);
        String what = code == null ? message : message.substring(code.length() + 3);
        String sentence = variable + (GOES_ON.matcher(what).lookingAt() ? " " : ": ") + what;
        return code == null ? sentence : "[" + code + "] " + sentence;
    }

    /** The environment variable at fault. */
    public String variable() {
        return variable;
    }
}
