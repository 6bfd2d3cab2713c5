package dev.snowid.spring.autoconfigure;

import dev.snowid.client.auth.AwsSigning;
import dev.snowid.protocol.HttpUrl;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Spring Boot's start-up report for a lease that could not be taken: what happened, and which
 * property to change. Registered in {@code META-INF/spring.factories}.
 */
public final class SnowidFailureAnalyzer extends AbstractFailureAnalyzer<LeaseStartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, LeaseStartupException cause) {
        return new FailureAnalysis(description(cause), action(cause), cause);
    }

    static String description(LeaseStartupException e) {
        String at = e.leaseUrl() == null ? "" : " at " + HttpUrl.shown(e.leaseUrl());
        switch (e.problem()) {
            case SETTING_MISSING:
            case SETTING_INVALID:
                return "snowid cannot lease a node slot: " + e.getMessage();
            case UNREACHABLE:
                return "snowid could not reach the lease API" + at + " (" + e.setting().property() + "): " + e.getMessage();
            case SECRET_REFUSED:
                return "The lease API" + at + " refused the bearer secret (" + e.setting().property() + "): " + e.getMessage();
            case PRINCIPAL_REFUSED:
                return "The lease API" + at + " refused this application's AWS identity (" + e.setting().property() + "=aws_iam): "
                        + e.getMessage();
            case SDK_MISSING:
                return "snowid cannot sign lease requests (" + e.setting().property() + "=aws_iam): " + e.getMessage();
            case POOL_FULL:
                return "Every node slot of the lease API's pool" + at + " is held, so this application has none to issue IDs from: "
                        + e.getMessage();
            case EPOCH_MISMATCH:
                return "The configured epoch (" + e.setting().property() + ") is not the lease API's" + at + ": " + e.getMessage();
            case CLOCK:
                return "This machine's clock is too far from the lease API's" + at + " to issue IDs safely: " + e.getMessage();
            default:
                return "The lease API" + at + " failed (" + SnowidSetting.URL.property() + "): " + e.getMessage();
        }
    }

    static String action(LeaseStartupException e) {
        switch (e.problem()) {
            case SETTING_MISSING:
            case SETTING_INVALID:
                return "Set " + e.setting().property() + " to " + e.setting().allowed() + ".";
            case UNREACHABLE:
                return "Check " + SnowidSetting.URL.property() + ": it must be " + SnowidSetting.URL.allowed()
                        + ", reachable from this machine.";
            case SECRET_REFUSED:
                return "Set " + SnowidSetting.SECRET.property() + " (or SNOWID_LEASE_SECRET) to the secret the lease API expects.";
            case PRINCIPAL_REFUSED:
                return "Run as a role the function lists in SNOWID_LEASE_PRINCIPALS (the template's LeasePrincipals; the caller's ARN is"
                        + " above when the function refused it) and may call execute-api:Invoke on the API, with credentials the AWS SDK's"
                        + " default chain finds here; behind a custom domain, set " + SnowidSetting.REGION.property() + ".";
            case SDK_MISSING:
                return "Add the Maven artifacts " + AwsSigning.SIGNER_ARTIFACT + " and " + AwsSigning.CREDENTIALS_ARTIFACT
                        + " (AWS SDK v2; and " + AwsSigning.STS_ARTIFACT + " for web identity), or set " + SnowidSetting.AUTH.property()
                        + "=bearer with " + SnowidSetting.SECRET.property() + ".";
            case POOL_FULL:
                return "Stop a holder of the pool, give the function a larger pool, or set " + SnowidSetting.WAIT_FOR_SLOT.property()
                        + " (" + SnowidSetting.WAIT_FOR_SLOT.allowed() + ") to wait for a slot to free.";
            case EPOCH_MISMATCH:
                return "Set " + SnowidSetting.EPOCH.property() + " to " + SnowidSetting.EPOCH.allowed() + ".";
            case CLOCK:
                return "Synchronise this machine's clock (NTP); no setting of snowid's changes this.";
            default:
                return "Check " + SnowidSetting.URL.property() + " and the lease API's own logs; start again once it answers.";
        }
    }
}
