package dev.snowid.agent.cli;

import dev.snowid.client.LeaseSecretRefusedException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import java.io.PrintStream;
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
        LeaseApiArguments call = LeaseApiArguments.read("leases", args, env, "snowid-agent leases", "the slot map needs", err);
        if (call == null) {
            return LeaseApiArguments.USAGE;
        }
        try {
            out.print(SlotGrid.render(call.api.slotMap()));
            return 0;
        } catch (LeaseStoreUnavailableException | LeaseSecretRefusedException e) {
            err.println("cannot read the slot map: " + e.getMessage());
            return 1;
        }
    }
}
