package dev.snowid;

/**
 * The wall clock is behind a time the generator must not go below (the last issued ID, or
 * the lease's floor) by more than it is allowed to wait out. The generator's state is
 * untouched; it issues again once the clock has caught up.
 */
public final class ClockBehindException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    private final long behindMillis;

    public ClockBehindException(String what, long behindMillis, long toleratedMillis) {
        super("clock is " + behindMillis + " ms behind " + what + " (at most " + toleratedMillis
                + " ms is waited out); refusing to issue until it catches up", behindMillis);
        this.behindMillis = behindMillis;
    }

    public long behindMillis() {
        return behindMillis;
    }
}
