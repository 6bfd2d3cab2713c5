package dev.snowid.agent.cli;

import dev.snowid.WallClock;
import dev.snowid.agent.config.AgentConfigurationException;
import dev.snowid.agent.runtime.IamSigning;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.LeaseSecretRefusedException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.protocol.HttpUrl;
import java.io.PrintStream;
import java.net.URL;
import java.util.Map;

/**
 * {@code leases <lease url>}: draws the function's slot pool ({@code GET /leases}) as a grid.
 * The secret comes from the environment variable {@value #SECRET_VARIABLE} only: an argument
 * would show in {@code ps} and in shell history. With {@value #AUTH_VARIABLE}{@code =aws_iam}
 * (and snowid-agent-iam.jar) the request is signed with this machine's AWS credentials instead,
 * for the region {@value #REGION_VARIABLE} names, else the URL's. Exit 0 on success, 1 when the API refused or
 * failed, 2 for wrong arguments.
 */
public final class LeasesCommand {

    static final String SECRET_VARIABLE = "SNOWID_LEASE_SECRET";
    static final String AUTH_VARIABLE = "SNOWID_LEASE_AUTH";
    static final String REGION_VARIABLE = "SNOWID_LEASE_REGION";

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
        HttpLeaseSource api;
        String auth = env.get(AUTH_VARIABLE);
        if (auth != null && auth.trim().equalsIgnoreCase("aws_iam")) {
            try {
                String region = env.get(REGION_VARIABLE);
                api = new HttpLeaseSource(url, IamSigning.forRegion(region == null || region.trim().isEmpty() ? null : region.trim())
                        .authorizerFor(url), "snowid-agent leases", WallClock.SYSTEM);
            } catch (AgentConfigurationException | IllegalArgumentException e) {
                return usage(err, e.getMessage());
            }
        } else {
            String secret = env.get(SECRET_VARIABLE);
            if (secret == null || secret.trim().isEmpty()) {
                return usage(err, SECRET_VARIABLE + " is not set: the slot map needs the lease API's bearer secret (or "
                        + AUTH_VARIABLE + "=aws_iam with snowid-agent-iam.jar)");
            }
            api = new HttpLeaseSource(url, secret::trim, "snowid-agent leases");
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
        err.println("usage: " + SECRET_VARIABLE + "=<secret> java -jar snowid-agent.jar leases <lease url>");
        err.println("       " + AUTH_VARIABLE + "=aws_iam java -jar snowid-agent-iam.jar leases <lease url>");
        return 2;
    }
}
