package dev.snowid.agent.e2e;

import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import dev.snowid.testing.engine.TestTable;
import java.util.HashMap;
import java.util.Map;

/**
 * The real lease API for the agent's tests: the function's local runner (the same handler as on
 * Lambda) on the test's DynamoDB-compatible engine, a pool of two machines in one datacenter,
 * leases of 5 s (the shortest the function allows); and agent JVMs configured to lease from it.
 */
final class LeaseApi {

    static final String SECRET = "agent-it-NfY0MsfuN6mSketxjLNT4S18";
    static final long LEASE_MILLIS = 5_000;
    static final String TARGET = "com.acme.legacy.LegacyIds#nextLong";

    private LeaseApi() {
    }

    /** The function's environment for two agent slots (machines 1 and 2) in {@code datacenter}; a copy to change. */
    static Map<String, String> environment(TestTable table, int datacenter) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put("SNOWID_LEASE_MILLIS", Long.toString(LEASE_MILLIS));
        env.put("SNOWID_MAX_CLOCK_SKEW_MILLIS", "250"); // the most a 5 s lease allows: one machine, one clock
        env.put("SNOWID_DATACENTERS", Integer.toString(datacenter));
        // Machines 1 and 2 for agents; the runner splits its pool as the template does, machine 0 is its own /ids'.
        env.put("SNOWID_MACHINES", "0-2");
        env.put("SNOWID_AGENT_SLOTS", "2");
        return env;
    }

    static LocalRunner start(TestTable table, int datacenter) {
        return LocalRunner.start(environment(table, datacenter));
    }

    /** An agent JVM that leases its node from {@code url} for {@link #TARGET}. */
    static ChildJvm leased(Jdk jdk, String url) {
        return ChildJvm.on(jdk)
                .property("snowid.lease.url", url)
                .property("snowid.targets", TARGET)
                .env("SNOWID_LEASE_SECRET", SECRET);
    }
}
