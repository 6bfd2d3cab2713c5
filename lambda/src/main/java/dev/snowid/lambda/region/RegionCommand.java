package dev.snowid.lambda.region;

import dev.snowid.WallClock;
import dev.snowid.lambda.dynamodb.DynamoDbClaimRegistry;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.BlockHandover;
import dev.snowid.region.Claim;
import dev.snowid.region.ClaimMarker;
import dev.snowid.region.LiveLeasesException;
import dev.snowid.region.plan.RegionPlan;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The operator's region command, in the function jar because it writes the same tables with the
 * same conditions as the deployed functions (run it from the jar you deployed):
 * {@code java -cp snowid-function.jar dev.snowid.lambda.region.RegionCommand <verb> <plan> …}
 * ({@code infra/regions.sh} wraps it). Verbs: {@code plan} (check the plan; {@code --envs} prints
 * the environments in deploy order), {@code claims} (the registry: every block's claims and
 * history), {@code release <env>} and {@code claim <env>} (a block changing hands,
 * docs/multi-region.md). AWS credentials come from the default chain; {@code --endpoint <url>}
 * sends every call to one local engine instead (the local runner's regions, tests). Exit 0 done,
 * 1 refused or failed, 2 wrong arguments.
 */
public final class RegionCommand {

    static final String USAGE = "usage: java -cp snowid-function.jar " + RegionCommand.class.getName() + " <verb> <plan.toml> [<env>]"
            + " [--endpoint <url>]\n"
            + "  plan <plan> [--envs]   check the region plan (blocks disjoint, every stack states its block and the registry)\n"
            + "  claims <plan>          every block's claim in force and its history, from the registry\n"
            + "  release <plan> <env>   give the stack's block back: refused while a lease of it is in force\n"
            + "      [--claim-table-deleted]   the claim was made from a table of this stack that was deleted (a recreated stack)\n"
            + "  claim <plan> <env>     claim a block this stack released before";

    private final PrintStream out;
    private final PrintStream err;
    private final URI endpoint;
    private final WallClock clock;

    RegionCommand(PrintStream out, PrintStream err, URI endpoint, WallClock clock) {
        this.out = out;
        this.err = err;
        this.endpoint = endpoint;
        this.clock = clock;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one verb; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> words = new ArrayList<>();
        URI endpoint = null;
        boolean envs = false;
        boolean claimTableDeleted = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--endpoint") && i + 1 < args.length) {
                endpoint = URI.create(args[++i]);
            } else if (args[i].equals("--envs")) {
                envs = true;
            } else if (args[i].equals("--claim-table-deleted")) {
                claimTableDeleted = true;
            } else if (args[i].startsWith("--")) {
                return usage(err, "unknown option " + args[i]);
            } else {
                words.add(args[i]);
            }
        }
        if (words.size() < 2) {
            return usage(err, words.isEmpty() ? "no verb given" : "no plan given");
        }
        String verb = words.get(0);
        boolean needsEnv = verb.equals("release") || verb.equals("claim");
        if (!List.of("plan", "claims", "release", "claim").contains(verb) || words.size() != (needsEnv ? 3 : 2)) {
            return usage(err, List.of("plan", "claims", "release", "claim").contains(verb)
                    ? verb + " takes " + (needsEnv ? "a plan and an environment" : "a plan only") : "unknown verb '" + verb + "'");
        }
        RegionPlan plan;
        try {
            plan = RegionPlan.read(Path.of(words.get(1)));
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 1;
        }
        RegionCommand command = new RegionCommand(out, err, endpoint, WallClock.SYSTEM);
        try {
            return switch (verb) {
                case "plan" -> command.plan(plan, envs);
                case "claims" -> command.claims(plan);
                case "release" -> command.release(plan, plan.stack(words.get(2)), claimTableDeleted);
                default -> command.claim(plan, plan.stack(words.get(2)));
            };
        } catch (IllegalArgumentException | BlockClaimedException | LiveLeasesException | LeaseStoreUnavailableException e) {
            err.println(verb + " refused: " + e.getMessage());
            return 1;
        }
    }

    private int plan(RegionPlan plan, boolean envs) {
        if (envs) {
            plan.deployOrder().forEach(out::println);
            return 0;
        }
        out.println("plan " + plan.source() + ": registry '" + plan.registryTable() + "' in " + plan.registryRegion()
                + " (stack " + plan.registryStack() + ")");
        for (RegionPlan.Stack stack : plan.stacks()) {
            out.println(String.format("  %-16s %-28s %s", stack.env(), stack.claimant(), stack.block()));
        }
        out.println("plan ok: " + plan.stacks().size() + " stacks, every block stated and disjoint, one registry");
        return 0;
    }

    private int claims(RegionPlan plan) {
        try (DynamoDbClaimRegistry registry = registry(plan)) {
            for (BlockClaims block : registry.claims().values()) {
                Claim current = block.current();
                RegionPlan.Stack planned = plan.stackOf(block.block());
                out.println(block.block() + ": " + (current == null ? "free, next claim starts at " + time(block.floor())
                        : current.claimant() + " since " + time(current.claimedAt()) + ", IDs from " + time(current.from()))
                        + (planned == null ? "" : "; the plan gives it to " + planned.claimant()));
                for (Claim ended : block.claims()) {
                    if (!ended.isOpen()) {
                        out.println("    earlier: " + ended.claimant() + ", IDs from " + time(ended.from()) + " until " + time(ended.until()));
                    }
                }
            }
        }
        return 0;
    }

    private int release(RegionPlan plan, RegionPlan.Stack stack, boolean claimTableDeleted) throws LiveLeasesException {
        try (DynamoDbClaimRegistry registry = registry(plan); DynamoDbLeaseStore table = leaseTable(stack)) {
            long until = new BlockHandover(registry, table, table.claimMarkers(), clock).release(stack.block(), stack.claimant(),
                    claimTableDeleted);
            out.println("released " + stack.block() + " from " + stack.claimant() + ": its slots are retired in " + table
                    + ", and the next claim's IDs start at " + time(until));
            return 0;
        }
    }

    private int claim(RegionPlan plan, RegionPlan.Stack stack) {
        try (DynamoDbClaimRegistry registry = registry(plan); DynamoDbLeaseStore table = leaseTable(stack)) {
            ClaimMarker marker = new BlockHandover(registry, table, table.claimMarkers(), clock).claimAgain(stack.block(), stack.claimant());
            if (!marker.confirms(stack.claimant())) {
                err.println("claim refused: the lease table's marker says " + marker);
                return 1;
            }
            out.println("claimed " + stack.block() + " for " + stack.claimant() + "; its IDs start at " + time(marker.floor()));
            return 0;
        }
    }

    private DynamoDbClaimRegistry registry(RegionPlan plan) {
        return DynamoDbClaimRegistry.create(plan.registryTable(), "the plan's " + RegionPlan.REGISTRY_TABLE, plan.registryRegion(),
                Optional.ofNullable(endpoint));
    }

    private DynamoDbLeaseStore leaseTable(RegionPlan.Stack stack) {
        return DynamoDbLeaseStore.builder().table(stack.leaseTable()).tableSetting("the stack's lease table (" + stack.env() + ")")
                .client(LeaseTableClient.builder().region(stack.claimant().region()).endpoint(Optional.ofNullable(endpoint))).build();
    }

    private static String time(long unixMillis) {
        return unixMillis + " (" + Instant.ofEpochMilli(unixMillis) + ")";
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println(USAGE);
        return 2;
    }
}
