package dev.snowid.agent;

import dev.snowid.agent.cli.CheckCommand;
import dev.snowid.agent.cli.DecodeCommand;
import dev.snowid.agent.cli.LeasesCommand;
import dev.snowid.agent.cli.Usage;

import java.io.PrintStream;

/** {@code java -jar snowid-agent.jar <command>}: the agent jar's tools for operators. */
public final class SnowidCli {

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
        if (args.length > 0 && args[0].equals("check")) {
            return CheckCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), System.getenv(), out, err);
        }
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help"))) {
            out.println(Usage.TEXT);
            return 0;
        }
        err.println(args.length == 0 ? "no command given" : "unknown command '" + args[0] + "'");
        err.println(Usage.TEXT);
        return 2;
    }
}
