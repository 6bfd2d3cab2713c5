package dev.snowid.spring.autoconfigure;

/**
 * Start-up could not lease a node slot, or the settings do not allow it: what went wrong, and the
 * setting to fix. {@link SnowidFailureAnalyzer} turns it into Spring Boot's start-up report.
 * Its message never holds the secret.
 */
public final class LeaseStartupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** What kind of failure, each with the action that fixes it. */
    public enum Problem {
        SETTING_MISSING,
        SETTING_INVALID,
        UNREACHABLE,
        SECRET_REFUSED,
        /** With aws_iam: API Gateway refused the signature, or the function does not list the workload's role (401, 403). */
        PRINCIPAL_REFUSED,
        /** With aws_iam: the AWS SDK's signer or credentials chain is not on the class path. */
        SDK_MISSING,
        POOL_FULL,
        API_FAILED,
        EPOCH_MISMATCH,
        CLOCK
    }

    private final Problem problem;
    private final SnowidSetting setting;
    private final String leaseUrl;

    LeaseStartupException(Problem problem, SnowidSetting setting, String leaseUrl, String message, Throwable cause) {
        super(message, cause);
        this.problem = problem;
        this.setting = setting;
        this.leaseUrl = leaseUrl;
    }

    public Problem problem() {
        return problem;
    }

    /** The setting to fix; null when no setting can fix it (a clock too far off). */
    public SnowidSetting setting() {
        return setting;
    }

    /** The lease API's URL as configured; null when not set. */
    public String leaseUrl() {
        return leaseUrl;
    }
}
