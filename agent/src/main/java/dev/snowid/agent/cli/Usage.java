package dev.snowid.agent.cli;

/** What {@code java -jar snowid-agent.jar} prints for help and beside a wrong command line: every command, once. */
public final class Usage {

    public static final String TEXT = "usage: java -jar snowid-agent.jar decode [--epoch <unix ms>] <id>\n"
            + "       java -jar snowid-agent.jar leases <lease url>   (secret from SNOWID_LEASE_SECRET)\n"
            + "       java -jar snowid-agent.jar check <lease url>    (secret from SNOWID_LEASE_SECRET)\n"
            + "       java -jar snowid-agent.jar version\n"
            + "  decode   prints the timestamp, ISO time, datacenter, machine and sequence of a Snowflake ID\n"
            + "  --epoch  the custom epoch the ID was issued with (default: Twitter's, 1288834974657)\n"
            + "  leases   draws the function's slot pool: who holds which slot, what is free, what expires\n"
            + "  check    the deployment check: credentials, lease, clock, IDs, slot map, GET /ids, release; one line per step\n"
            + "  version  prints the agent's version\n"
            + "as a -javaagent: see docs/agent.md (-Dsnowid.node / -Dsnowid.lease.url, -Dsnowid.targets)";

    private Usage() {
    }
}
