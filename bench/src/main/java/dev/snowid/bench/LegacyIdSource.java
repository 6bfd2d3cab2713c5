package dev.snowid.bench;

/**
 * The "legacy" ID methods {@link AgentRedirectBenchmark} has the agent redirect. Their bodies
 * throw, so a run without the agent (or with a wrong target) fails instead of measuring them.
 */
public final class LegacyIdSource {

    private LegacyIdSource() {
    }

    public static long nextLong() {
        throw new IllegalStateException("not redirected: run AgentRedirectBenchmark from the repository root after"
                + " building agent/target/snowid-agent.jar (mvn -pl agent,bench -am package)");
    }

    public static String nextString() {
        throw new IllegalStateException("not redirected: run AgentRedirectBenchmark from the repository root after"
                + " building agent/target/snowid-agent.jar (mvn -pl agent,bench -am package)");
    }
}
