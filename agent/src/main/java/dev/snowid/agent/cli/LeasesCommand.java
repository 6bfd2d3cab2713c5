package dev.snowid.agent.cli;

import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.LeaseSecretRefusedException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.protocol.HttpUrl;
import java.io.PrintStream;
import java.net.URL;
import java.util.Map;

/**
 * {@code leases <lease url>}: draws the function's slot pool ({@code GET /leases}) as a grid.
 * The credentials come from the environment ({@link CliSettings}): the bearer secret, or with
 * {@code SNOWID_LEASE_AUTH=aws_iam} (and snowid-agent-iam.jar) a signature with this machine's
 * AWS credentials. Exit 0 on success, 1 when the API refused or failed, 2 for wrong arguments.
 */
public final class LeasesCommand {

    private LeasesCommand() {
    }

    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.length != 1) {
            // The extra arguments are not echoed: a secret typed there would be printed back.
            return usage(err, args.length == 0 ? "no lease URL given" : "one lease URL only; " + (args.length - 1)
                    + " more argument(s) given, not shown (a secret goes in " + CliSettings.SECRET_VARIABLE + ", never on the command line)");
        }
        for (String warning : CliSettings.warnings(env)) {
            err.println("warning: " + warning);
        }
        URL url;
        try {
            url = HttpUrl.parse(args[0]);
        } catch (IllegalArgumentException e) {
            return usage(err, "'" + HttpUrl.shown(args[0]) + "' " + e.getMessage()
                    + "; give the template's LeaseUrl, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com");
        }
        HttpLeaseSource api;
        try {
            api = CliSettings.leaseApi(env, url, "snowid-agent leases", "the slot map needs");
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        try {
            out.print(SlotGrid.render(api.slotMap()));
            return 0;
        } catch (LeaseStoreUnavailableException | LeaseSecretRefusedException e) {
            err.println("cannot read the slot map: " + e.getMessage());
            return 1;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println("usage: " + CliSettings.SECRET_VARIABLE + "=<secret> java -jar snowid-agent.jar leases <lease url>");
        err.println("       " + CliSettings.AUTH_VARIABLE + "=aws_iam java -jar snowid-agent-iam.jar leases <lease url>");
        return 2;
    }
}
