package dev.snowid.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** {@code snowid.lease.auth} and {@code snowid.lease.region}: what each mode needs, and nothing of the other's. */
class LeaseAuthSettingsTest {

    private final Properties properties = new Properties();
    private final Map<String, String> environment = new HashMap<>();

    private AgentSettings read() {
        return AgentSettings.read(properties, environment);
    }

    private void leased() {
        properties.setProperty(AgentProperties.LEASE_URL, "https://abc123.execute-api.eu-west-1.amazonaws.com");
        properties.setProperty(AgentProperties.TARGETS, "com.acme.Ids#next");
    }

    @Test
    void bearerIsTheDefaultAndNeedsTheSecret() {
        leased();
        environment.put("SNOWID_LEASE_SECRET", "lease-auth-53c5a3d2da21619cd791fbfd854015dc4f4e363553d3b60af75775d465c9e664");
        AgentSettings settings = read();
        assertFalse(settings.leaseSigned());
        assertEquals("lease-auth-53c5a3d2da21619cd791fbfd854015dc4f4e363553d3b60af75775d465c9e664", settings.leaseSecret());
        assertNull(settings.leaseRegion());
    }

    @Test
    void awsIamTakesNoSecretAndAnOptionalRegion() {
        leased();
        properties.setProperty(AgentProperties.LEASE_AUTH, "aws_iam");
        AgentSettings signed = read();
        assertTrue(signed.leaseSigned());
        assertNull(signed.leaseSecret());
        assertNull(signed.leaseRegion(), "from the lease URL's host");

        properties.setProperty(AgentProperties.LEASE_REGION, "us-east-2");
        assertEquals("us-east-2", read().leaseRegion());
        environment.put("SNOWID_LEASE_AUTH", "AWS_IAM"); // the function's spelling, from a shared environment
        properties.remove(AgentProperties.LEASE_AUTH);
        assertTrue(read().leaseSigned());
    }

    @Test
    void aSecretWithAwsIamIsRefusedNamingBoth() {
        leased();
        properties.setProperty(AgentProperties.LEASE_AUTH, "aws_iam");
        environment.put("SNOWID_LEASE_SECRET", "lease-auth-53c5a3d2da21619cd791fbfd854015dc4f4e363553d3b60af75775d465c9e664");
        AgentConfigurationException refused = assertThrows(AgentConfigurationException.class, this::read);
        assertTrue(refused.getMessage().contains(AgentProperties.LEASE_SECRET) && refused.getMessage().contains("aws_iam"), refused.getMessage());
    }

    @Test
    void anUnknownModeARegionWithoutIamAndIamWithoutALeaseAreRefused() {
        leased();
        environment.put("SNOWID_LEASE_SECRET", "lease-auth-53c5a3d2da21619cd791fbfd854015dc4f4e363553d3b60af75775d465c9e664");
        properties.setProperty(AgentProperties.LEASE_AUTH, "iam");
        assertTrue(assertThrows(AgentConfigurationException.class, this::read).getMessage().contains("is not a lease auth mode; allowed 'bearer'"));

        properties.remove(AgentProperties.LEASE_AUTH);
        properties.setProperty(AgentProperties.LEASE_REGION, "eu-west-1");
        assertTrue(assertThrows(AgentConfigurationException.class, this::read).getMessage().contains("only applies with"));

        properties.setProperty(AgentProperties.LEASE_AUTH, "aws_iam");
        environment.remove("SNOWID_LEASE_SECRET");
        properties.setProperty(AgentProperties.LEASE_REGION, "Europe");
        assertTrue(assertThrows(AgentConfigurationException.class, this::read).getMessage().contains("is not an AWS region name"));

        properties.remove(AgentProperties.LEASE_URL);
        properties.remove(AgentProperties.LEASE_REGION);
        properties.setProperty(AgentProperties.NODE, "7:13");
        assertTrue(assertThrows(AgentConfigurationException.class, this::read).getMessage().contains("only applies to a leased node"));
    }
}
