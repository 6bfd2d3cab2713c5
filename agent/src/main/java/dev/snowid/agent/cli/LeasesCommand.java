package dev.snowid.agent.cli;

import dev.snowid.client.LeaseSecretRefusedException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import java.io.PrintStream;
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
        List<LeaseApiArguments> calls = LeaseApiArguments.readEach("leases", args, env, "snowid-agent leases",
                "the slot map needs", err);
        if (calls == null) {
            return LeaseApiArguments.USAGE;
        }
        List<FleetView.Stack> stacks = new ArrayList<>();
        int status = 0;
        for (int i = 0; i < calls.size(); i++) {
            try {
                stacks.add(new FleetView.Stack(args[i], calls.get(i).api.slotMap()));
            } catch (LeaseStoreUnavailableException | LeaseSecretRefusedException e) {
                err.println("cannot read the slot map" + (calls.size() == 1 ? "" : " of " + args[i]) + ": " + e.getMessage());
                status = 1;
            }
        }
        if (stacks.size() == 1 && calls.size() == 1 && stacks.get(0).map.region() == null) {
            // A function before regions: the grid alone.
            out.print(SlotGrid.render(stacks.get(0).map));
            return status;
        }
        List<String> disagreements = new ArrayList<>();
        out.print(FleetView.render(stacks, disagreements));
        return disagreements.isEmpty() ? status : 1;
    }
}
