package dev.snowid.integrations;

import dev.snowid.client.SnowidClient;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import dev.snowid.testing.engine.TestTable;
import java.util.HashMap;
import java.util.Map;

/**
 * A real lease API for the tests: the function's local runner (the same handler as on Lambda) on a
 * real DynamoDB-compatible engine, with eight slots for agents and 5 s leases, the shortest the
 * function allows, so that long runs cross renewals.
 */
public final class LeaseApi implements AutoCloseable {

    public static final int DATACENTER = 21;
    private static final String SECRET = "integrations-wYyblWwlOhoK37khzqz4xgtC";

    private final LocalRunner runner;

    private LeaseApi(LocalRunner runner) {
        this.runner = runner;
    }

    public static LeaseApi start(TestTable table) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put(FunctionSettings.LEASE_MILLIS, "5000");
        env.put(FunctionSettings.MAX_CLOCK_SKEW_MILLIS, "250"); // the most a 5 s lease allows: one machine, one clock
        env.put(FunctionSettings.DATACENTERS, Integer.toString(DATACENTER));
        // Eight slots for agents (machines 1-8); machine 0 is the runner's own (it splits its pool as the template does).
        env.put(FunctionSettings.MACHINES, "0-8");
        env.put(FunctionSettings.AGENT_SLOTS, "8");
        return new LeaseApi(LocalRunner.start(env));
    }

    /** A client that has leased a slot from this API. */
    public SnowidClient newClient() {
        return SnowidClient.builder()
                .leaseUrl(runner.baseUri().toString())
                .secret(SECRET)
                .build();
    }

    @Override
    public void close() {
        runner.close();
    }
}
