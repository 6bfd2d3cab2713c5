package dev.snowid.testing.crac;

/** A resource refused the checkpoint; each refusal is suppressed in it. */
public class CheckpointException extends Exception {

    private static final long serialVersionUID = 1L;
}
