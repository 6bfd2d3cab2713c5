package dev.snowid.agent.cli;

import dev.snowid.client.HttpLeaseSource;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.LeaseAuthMode;
import java.io.PrintStream;
import java.net.URL;
import java.util.Map;

/**
 * What the commands that call the lease API ({@code leases}, {@code check}) start with: their one
 * argument, the lease URL; a warning for each {@code SNOWID_*} variable they do not read; and the
 * lease API at that URL, authorized as the environment says ({@link CliSettings}). Wrong
 * arguments or settings are a usage error (exit status 2), said on stderr.
 */
final class LeaseApiArguments {

    /** Exit status for wrong arguments or settings. */
    static final int USAGE = 2;

    final URL url;
    final HttpLeaseSource api;
    final LeaseAuthMode mode;
    /** How long a first lease is asked again after no settled answer ({@link CliSettings#startupDeadlineMillis}). */
    final long startupDeadlineMillis;

    private LeaseApiArguments(URL url, HttpLeaseSource api, LeaseAuthMode mode, long startupDeadlineMillis) {
        this.url = url;
        this.api = api;
        this.mode = mode;
        this.startupDeadlineMillis = startupDeadlineMillis;
    }

    /**
     * @param command the command's name, for the usage lines
     * @param holder  who the lease API is told is asking
     * @param needs   what the command needs the API for, for the message when no credentials are set
     * @return null when the arguments or settings are wrong: the problem and the usage are on {@code err}
     */
    static LeaseApiArguments read(String command, String[] args, Map<String, String> env, String holder, String needs,
                                  PrintStream err) {
        if (args.length != 1) {
            usage(command, err, args.length == 0 ? "no lease URL given" : "one lease URL only; unexpected '" + args[1] + "'");
            return null;
        }
        for (String warning : CliSettings.warnings(env)) {
            err.println("warning: " + warning);
        }
        URL url;
        try {
            url = HttpUrl.parse(args[0]);
        } catch (IllegalArgumentException e) {
            usage(command, err, "'" + args[0] + "' " + e.getMessage()
                    + "; give the template's LeaseUrl, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com");
            return null;
        }
        try {
            return new LeaseApiArguments(url, CliSettings.leaseApi(env, url, holder, needs), CliSettings.mode(env),
                    CliSettings.startupDeadlineMillis(env));
        } catch (IllegalArgumentException e) {
            usage(command, err, e.getMessage());
            return null;
        }
    }

    /** The problem, then how the command is called, on {@code err}. */
    static int usage(String command, PrintStream err, String problem) {
        err.println(problem);
        err.println("usage: " + CliSettings.SECRET_VARIABLE + "=<secret> java -jar snowid-agent.jar " + command + " <lease url>");
        err.println("       " + CliSettings.AUTH_VARIABLE + "=aws_iam java -jar snowid-agent-iam.jar " + command + " <lease url>");
        return USAGE;
    }
}
