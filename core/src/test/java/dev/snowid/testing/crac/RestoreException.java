package dev.snowid.testing.crac;

/** A resource failed after the restore; each failure is suppressed in it. */
public class RestoreException extends Exception {

    private static final long serialVersionUID = 1L;
}
