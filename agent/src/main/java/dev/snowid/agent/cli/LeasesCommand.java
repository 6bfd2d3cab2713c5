package dev.snowid.agent.cli;

import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.wire.HttpUrl;
import dev.snowid.client.wire.LeaseSecretRefusedException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import java.io.PrintStream;
import java.net.URL;
import java.util.Map;

/**
 * {@code leases <lease url>}: draws the function's slot pool ({@code GET /leases}) as a grid.
 * The secret comes from the environment variable {@value #SECRET_VARIABLE} only: an argument
 * would show in {@code ps} and in shell history. Exit 0 on success, 1 when the API refused or
 * failed, 2 for wrong arguments.
 */
public final class LeasesCommand {

    static final String SECRET_VARIABLE = "SNOWID_LEASE_SECRET";

    private LeasesCommand() {
    }

    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.length != 1) {
            return usage(err, args.length == 0 ? "no lease URL given" : "one lease URL only; unexpected '" + args[1] + "'");
        }
        URL url;
        try {
            url = HttpUrl.parse(args[0]);
        } catch (IllegalArgumentException e) {
            return usage(err, "'" + args[0] + "' " + e.getMessage()
                    + "; give the template's LeaseUrl, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com");
        }
        String secret = env.get(SECRET_VARIABLE);
        if (secret == null || secret.trim().isEmpty()) {
            return usage(err, SECRET_VARIABLE + " is not set: the slot map needs the lease API's bearer secret");
        }
        try {
            out.print(SlotGrid.render(new HttpLeaseSource(url, secret::trim, "snowid-agent leases").slotMap()));
            return 0;
        } catch (LeaseStoreUnavailableException | LeaseSecretRefusedException e) {
            err.println("cannot read the slot map: " + e.getMessage());
            return 1;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println("usage: " + SECRET_VARIABLE + "=<secret> java -jar snowid-agent.jar leases <lease url>");
        return 2;
    }
}
