package dev.snowid.protocol;

import java.util.Locale;

/**
 * How a lease request proves who sends it, the same two modes on both sides: the function's
 * {@code SNOWID_LEASE_AUTH}, the agent's {@code snowid.lease.auth}, its CLI's
 * {@code SNOWID_LEASE_AUTH}. Written {@code bearer} and {@code aws_iam}, in any case (the
 * template's parameter says {@code AWS_IAM}).
 */
public enum LeaseAuthMode {

    /** {@code Authorization: Bearer <secret>}; the function holds the secret's SHA-256. */
    BEARER("bearer"),
    /**
     * AWS SigV4 with the caller's own credentials, checked by API Gateway's IAM authorization,
     * which hands the function the verified caller.
     */
    AWS_IAM("aws_iam");

    /** What may be set, in words. */
    public static final String ALLOWED = "'bearer' (the default: the lease API's bearer secret) or 'aws_iam' (AWS SigV4 with the"
            + " caller's own credentials, checked by API Gateway's IAM authorization)";

    private final String value;

    LeaseAuthMode(String value) {
        this.value = value;
    }

    /** As it is written: {@code bearer}, {@code aws_iam}. */
    public String value() {
        return value;
    }

    /**
     * The mode {@code text} names, in any case, spaces around ignored.
     *
     * @throws IllegalArgumentException {@code "'iam' is not a lease auth mode; allowed 'bearer' … or 'aws_iam' …"}
     */
    public static LeaseAuthMode parse(String text) {
        String typed = text.trim().toLowerCase(Locale.ROOT);
        for (LeaseAuthMode mode : values()) {
            if (mode.value.equals(typed)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("'" + EchoedInput.shortened(text) + "' is not a lease auth mode; allowed " + ALLOWED);
    }

    @Override
    public String toString() {
        return value;
    }
}
