package dev.snowid.lambda.settings;

/** An environment variable of the function has a value it cannot use; the message names the variable. */
public final class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String variable;

    public InvalidSettingException(String variable, String message) {
        super(variable + ": " + message);
        this.variable = variable;
    }

    /** The environment variable at fault. */
    public String variable() {
        return variable;
    }
}
