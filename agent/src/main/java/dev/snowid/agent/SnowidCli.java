package dev.snowid.agent;

import dev.snowid.agent.cli.DecodeCommand;
import dev.snowid.agent.cli.LeasesCommand;

import java.io.PrintStream;

/** {@code java -jar snowid-agent.jar <command>}: the agent jar's tools for operators. */
public final class SnowidCli {

    public static final String USAGE = "usage: java -jar snowid-agent.jar decode [--epoch <unix ms>] <id>\n"
            + "       java -jar snowid-agent.jar leases <lease url>   (secret from SNOWID_LEASE_SECRET)\n"
            + "       java -jar snowid-agent.jar version\n"
            + "  decode   prints the timestamp, ISO time, datacenter, machine and sequence of a Snowflake ID\n"
            + "  --epoch  the custom epoch the ID was issued with (default: Twitter's, 1288834974657)\n"
            + "  leases   draws the function's slot pool: who holds which slot, what is free, what expires\n"
            + "  version  prints the agent's version\n"
            + "as a -javaagent: see docs/agent.md (-Dsnowid.node / -Dsnowid.lease.url, -Dsnowid.targets)";

    private SnowidCli() {
    }

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 0 && args[0].equals("decode")) {
            return DecodeCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length == 1 && (args[0].equals("version") || args[0].equals("--version"))) {
            out.println(AgentVersion.nameAndVersion());
            return 0;
        }
        if (args.length > 0 && args[0].equals("leases")) {
            return LeasesCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), System.getenv(), out, err);
        }
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help"))) {
            out.println(USAGE);
            return 0;
        }
        err.println(args.length == 0 ? "no command given" : "unknown command '" + args[0] + "'");
        err.println(USAGE);
        return 2;
    }
}
