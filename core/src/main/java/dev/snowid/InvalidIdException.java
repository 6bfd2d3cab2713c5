package dev.snowid;

/** A value that is not a Snowflake ID: negative, too large, or not a decimal integer. */
public final class InvalidIdException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidIdException(String message) {
        super(message);
    }
}
