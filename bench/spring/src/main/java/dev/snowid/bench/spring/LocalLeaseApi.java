package dev.snowid.bench.spring;

import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import java.util.HashMap;
import java.util.Map;

/** The lease API the benchmarks lease from: the function's local runner, with its own dynalite. The one class that knows the runner. */
final class LocalLeaseApi implements AutoCloseable {

    static final String SECRET = "bench-secret-8588c394de39296396095a2258c718b7ce9f5994eb2c570b70063f7f9b3188bb";

    private final LocalRunner runner;

    private LocalLeaseApi(LocalRunner runner) {
        this.runner = runner;
    }

    static LocalLeaseApi start() {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        return new LocalLeaseApi(LocalRunner.start(env));
    }

    String url() {
        return runner.baseUri().toString();
    }

    @Override
    public void close() {
        runner.close();
    }
}
