package dev.snowid.agent.cli;

/** What {@code java -jar snowid-agent.jar} prints for help and beside a wrong command line: every command, once. */
public final class Usage {

    public static final String TEXT = "usage: java -jar snowid-agent.jar decode [--epoch <unix ms>] [--plan <file> | --api <url>] <id>\n"
            + "       java -jar snowid-agent.jar leases <lease url> [<lease url> ...]   (secret from SNOWID_LEASE_SECRET)\n"
            + "       java -jar snowid-agent.jar check <lease url>    (secret from SNOWID_LEASE_SECRET)\n"
            + "       java -jar snowid-agent.jar version\n"
            + "  decode   prints the timestamp, ISO time, datacenter, machine and sequence of a Snowflake ID\n"
            + "  --epoch  the custom epoch the ID was issued with (default: Twitter's, 1288834974657)\n"
            + "  --plan   names the region the region plan gives the ID's block; --api: the region any stack names for it\n"
            + "  leases   draws each stack's slot pool, and with several, the claim registry's claims and where they disagree\n"
            + "  check    the deployment check: credentials, lease, clock, IDs, slot map, region, GET /ids, release; one line per step\n"
            + "  version  prints the agent's version\n"
            + "as a -javaagent: see docs/agent.md (-Dsnowid.node / -Dsnowid.lease.url, -Dsnowid.targets)";

    private Usage() {
    }
}
