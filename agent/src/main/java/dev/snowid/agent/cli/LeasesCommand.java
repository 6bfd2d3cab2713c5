package dev.snowid.agent.cli;

import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.LeaseSecretRefusedException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.protocol.HttpUrl;
import java.io.PrintStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code leases <lease url> [<lease url> …]}: draws the function's slot pool ({@code GET /leases})
 * as a grid; given several stacks (one per region), the fleet ({@link FleetView}): every grid, the
 * claim registry's claims and the blocks where claims and live leases disagree. The credentials
 * come from the environment ({@link CliSettings}): the bearer secret, or with
 * {@code SNOWID_LEASE_AUTH=aws_iam} (and snowid-agent-iam.jar) a signature with this machine's
 * AWS credentials. Exit 0 on success, 1 when an API refused or failed or a claim disagrees, 2 for
 * wrong arguments.
 */
public final class LeasesCommand {

    private LeasesCommand() {
    }

    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            return usage(err, "no lease URL given");
        }
        for (String warning : CliSettings.warnings(env)) {
            err.println("warning: " + warning);
        }
        List<HttpLeaseSource> apis = new ArrayList<>();
        for (String arg : args) {
            URL url;
            try {
                url = HttpUrl.parse(arg);
            } catch (IllegalArgumentException e) {
                return usage(err, "'" + arg + "' " + e.getMessage()
                        + "; give the template's LeaseUrl, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com");
            }
            try {
                apis.add(CliSettings.leaseApi(env, url, "snowid-agent leases", "the slot map needs"));
            } catch (IllegalArgumentException e) {
                return usage(err, e.getMessage());
            }
        }
        List<FleetView.Stack> stacks = new ArrayList<>();
        int status = 0;
        for (int i = 0; i < apis.size(); i++) {
            try {
                stacks.add(new FleetView.Stack(args[i], apis.get(i).slotMap()));
            } catch (LeaseStoreUnavailableException | LeaseSecretRefusedException e) {
                err.println("cannot read the slot map" + (apis.size() == 1 ? "" : " of " + args[i]) + ": " + e.getMessage());
                status = 1;
            }
        }
        if (stacks.size() == 1 && apis.size() == 1 && stacks.get(0).map.region() == null) {
            // A function before regions: the grid alone.
            out.print(SlotGrid.render(stacks.get(0).map));
            return status;
        }
        List<String> disagreements = new ArrayList<>();
        out.print(FleetView.render(stacks, disagreements));
        return disagreements.isEmpty() ? status : 1;
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println("usage: " + CliSettings.SECRET_VARIABLE + "=<secret> java -jar snowid-agent.jar leases <lease url> [<lease url> ...]");
        err.println("       " + CliSettings.AUTH_VARIABLE + "=aws_iam java -jar snowid-agent-iam.jar leases <lease url>");
        return 2;
    }
}
