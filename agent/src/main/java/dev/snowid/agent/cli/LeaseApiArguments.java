package dev.snowid.agent.cli;

import dev.snowid.client.HttpLeaseSource;
import dev.snowid.internal.SettingValues;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.LeaseAuthMode;
import java.io.PrintStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the commands that call the lease API ({@code leases}, {@code check}) start with: their
 * arguments, the lease URLs (one for {@code check}); a warning for each {@code SNOWID_*} variable they do not read; and the
 * lease API at each URL, authorized as the environment says ({@link CliSettings}). Wrong
 * arguments or settings are a usage error (exit status 2), said on stderr.
 */
final class LeaseApiArguments {

    /** Exit status for wrong arguments or settings. */
    static final int USAGE = 2;

    final URL url;
    final HttpLeaseSource api;
    final LeaseAuthMode mode;
    /** The commands' settings ({@link CliSettings}): a command asks them for what it needs. */
    final SettingValues settings;

    private LeaseApiArguments(URL url, HttpLeaseSource api, LeaseAuthMode mode, SettingValues settings) {
        this.url = url;
        this.api = api;
        this.mode = mode;
        this.settings = settings;
    }

    /**
     * @param command the command's name, for the usage lines
     * @param holder  who the lease API is told is asking
     * @param needs   what the command needs the API for, for the message when no credentials are set
     * @return null when the arguments or settings are wrong: the problem and the usage are on {@code err}
     */
    static LeaseApiArguments read(String command, String[] args, Map<String, String> env, String holder, String needs,
                                  PrintStream err) {
        if (args.length > 1) {
            // The extra arguments are not echoed: a secret typed there would be printed back.
            usage(command, false, err, "one lease URL only; " + (args.length - 1) + " more argument(s) given, not shown (a secret goes in "
                    + CliSettings.SECRET_VARIABLE + ", never on the command line)");
            return null;
        }
        List<LeaseApiArguments> each = readEach(command, false, args, env, holder, needs, err);
        return each == null ? null : each.get(0);
    }

    /**
     * As {@link #read}, for a command that takes one or more lease URLs (one stack per region).
     *
     * @return one per URL, in order; null when the arguments or settings are wrong (said on {@code err})
     */
    static List<LeaseApiArguments> readEach(String command, String[] args, Map<String, String> env, String holder, String needs,
                                            PrintStream err) {
        return readEach(command, true, args, env, holder, needs, err);
    }

    private static List<LeaseApiArguments> readEach(String command, boolean several, String[] args, Map<String, String> env,
                                                    String holder, String needs, PrintStream err) {
        if (args.length == 0) {
            usage(command, several, err, "no lease URL given");
            return null;
        }
        for (String warning : CliSettings.warnings(env)) {
            err.println("warning: " + warning);
        }
        List<LeaseApiArguments> each = new ArrayList<>();
        for (String arg : args) {
            URL url;
            try {
                url = HttpUrl.parse(arg);
            } catch (IllegalArgumentException e) {
                // Quoted as HttpUrl shows a URL: a secret typed in its place, or in its user information or query, stays unseen.
                usage(command, several, err, "'" + HttpUrl.shown(arg) + "' " + e.getMessage()
                        + "; give the template's LeaseUrl, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com");
                return null;
            }
            try {
                SettingValues settings = CliSettings.values(env);
                settings.get(CliSettings.STARTUP_DEADLINE); // a bad value is a usage error before any request
                each.add(new LeaseApiArguments(url, CliSettings.leaseApi(env, url, holder, needs), CliSettings.mode(env), settings));
            } catch (IllegalArgumentException e) {
                usage(command, several, err, e.getMessage());
                return null;
            }
        }
        return each;
    }

    /** The problem, then how the command is called, on {@code err}. */
    private static void usage(String command, boolean several, PrintStream err, String problem) {
        String urls = several ? " <lease url> [<lease url> ...]" : " <lease url>";
        err.println(problem);
        err.println("usage: " + CliSettings.SECRET_VARIABLE + "=<secret> java -jar snowid-agent.jar " + command + urls);
        err.println("       " + CliSettings.AUTH_VARIABLE + "=aws_iam java -jar snowid-agent-iam.jar " + command + urls);
    }
}
