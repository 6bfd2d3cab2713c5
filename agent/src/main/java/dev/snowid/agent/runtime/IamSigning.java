package dev.snowid.agent.runtime;

import dev.snowid.agent.config.AgentConfigurationException;
import dev.snowid.agent.config.AgentProperties;
import dev.snowid.agent.config.AgentSettings;
import dev.snowid.client.auth.AwsSigning;

/**
 * {@code snowid.lease.auth=aws_iam}: lease requests signed with SigV4 by the AWS SDK that only
 * snowid-agent-iam.jar carries (relocated, so the application's own SDK is never used or
 * touched). Its own class, loaded only in that mode: a node or bearer agent loads no class of it.
 */
public final class IamSigning {

    /** Present only in snowid-agent-iam.jar (a resource, not an SDK class: the application's own SDK must not count). */
    static final String MARKER = "dev/snowid/agent/aws-sdk.properties";
    static final String IAM_JAR = "snowid-agent-iam.jar";

    private IamSigning() {
    }

    static AwsSigning of(AgentSettings settings) {
        return forRegion(settings.leaseRegion());
    }

    /**
     * @param region the API's region, or null to take it from the lease URL's host
     * @throws AgentConfigurationException this jar has no SDK (it is not snowid-agent-iam.jar)
     */
    public static AwsSigning forRegion(String region) {
        if (IamSigning.class.getClassLoader().getResource(MARKER) == null) {
            throw new AgentConfigurationException(AgentProperties.LEASE_AUTH + "=aws_iam needs " + IAM_JAR + ", the agent with the AWS "
                    + "SDK it signs with: -javaagent:" + IAM_JAR + " instead of this jar (or " + AgentProperties.LEASE_AUTH
                    + "=bearer with " + AgentProperties.envName(AgentProperties.LEASE_SECRET) + ")");
        }
        AwsSigning signing = AwsSigning.defaultCredentials();
        return region == null ? signing : signing.region(region);
    }
}
