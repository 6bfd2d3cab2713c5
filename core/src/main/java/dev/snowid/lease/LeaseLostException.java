package dev.snowid.lease;

/** The slot is no longer ours: another owner or fence holds it, or it was released. HTTP 409. */
public final class LeaseLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public LeaseLostException(String message) {
        super(message);
    }
}
