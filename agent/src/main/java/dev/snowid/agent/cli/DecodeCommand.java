package dev.snowid.agent.cli;

import dev.snowid.InvalidIdException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.internal.WholeNumber;
import dev.snowid.protocol.ApiRoute;
import dev.snowid.protocol.DecodeAnswer;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.region.Block;
import dev.snowid.region.plan.RegionPlan;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.OptionalLong;

/**
 * {@code decode [--epoch <unix ms>] [--plan <regions.toml> | --api <url>] <id>}: prints an ID's
 * fields, one {@code name: value} per line, and with a plan or an API the region that issued it:
 * the plan's stack for the ID's block (the plan knows today's assignment only), or what
 * {@code GET /ids/{id}} of any stack answers (the claim registry's history). Exit 0 on success,
 * 1 for a value that is not an ID or an API that does not answer, 2 for wrong arguments.
 */
public final class DecodeCommand {

    private DecodeCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        SnowflakeCodec codec = SnowflakeCodec.TWITTER;
        String id = null;
        String plan = null;
        String api = null;
        for (int i = 0; i < args.length; i++) {
            if ((args[i].equals("--plan") || args[i].equals("--api")) && (i + 1 >= args.length || plan != null || api != null)) {
                return usage(err, plan != null || api != null ? "one of --plan and --api, once"
                        : args[i] + " needs a value: " + (args[i].equals("--plan") ? "a region plan file" : "the API's base URL"));
            }
            if (args[i].equals("--plan")) {
                plan = args[++i];
                continue;
            }
            if (args[i].equals("--api")) {
                api = args[++i];
                continue;
            }
            if (args[i].equals("--epoch")) {
                if (i + 1 >= args.length) {
                    return usage(err, "--epoch needs a value: unix milliseconds");
                }
                OptionalLong epoch = WholeNumber.parse(args[++i]);
                try {
                    codec = SnowflakeCodec.withEpoch(epoch.orElse(-1));
                } catch (IllegalArgumentException e) {
                    return usage(err, "--epoch '" + args[i] + "' is not a valid epoch: "
                            + (!epoch.isPresent() ? "expected unix milliseconds, e.g. 1288834974657" : e.getMessage()));
                }
            } else if (id == null) {
                id = args[i];
            } else {
                return usage(err, "one ID at a time; unexpected '" + args[i] + "'");
            }
        }
        if (id == null) {
            return usage(err, "no ID given");
        }
        SnowflakeId decoded;
        try {
            decoded = codec.parse(id);
        } catch (InvalidIdException e) {
            err.println("invalid ID: " + e.getMessage());
            return 1;
        }
        out.println("id:         " + decoded.value());
        out.println("timestamp:  " + decoded.unixMillis());
        out.println("time:       " + decoded.instant());
        out.println("datacenter: " + decoded.datacenter());
        out.println("machine:    " + decoded.machine());
        out.println("sequence:   " + decoded.sequence());
        out.println("epoch:      " + codec.epochMillis());
        if (plan != null) {
            return planRegion(plan, decoded, out, err);
        }
        if (api != null) {
            return apiRegion(api, decoded, out, err);
        }
        return 0;
    }

    /** The region the plan gives the ID's block today (a block that changed hands: --api knows its history). */
    private static int planRegion(String file, SnowflakeId id, PrintStream out, PrintStream err) {
        RegionPlan plan;
        try {
            plan = RegionPlan.read(new File(file).toPath());
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 1;
        }
        Block block = Block.ofDatacenter(id.datacenter());
        RegionPlan.Stack stack = plan.stackOf(block);
        out.println("region:     " + (stack == null ? "none: the plan gives " + block + " to no stack"
                : stack.claimant().region() + " (the plan's stack for " + block + ")"));
        return 0;
    }

    /** The region the claim registry names for the ID, as any stack's public decode route answers. */
    private static int apiRegion(String base, SnowflakeId id, PrintStream out, PrintStream err) {
        try {
            String path = ApiRoute.DECODE.path(id.value());
            PublicRoute.Answer answer = PublicRoute.get(PublicRoute.base(HttpUrl.parse(base).toString()), path);
            if (answer.status != 200) {
                err.println(ApiRoute.DECODE.method() + " " + path + " answered HTTP " + answer.status + ": " + answer.body);
                return 1;
            }
            String region = DecodeAnswer.region(answer.body);
            out.println("region:     " + (region == null ? "unknown to the API (no claim covers the ID's time)" : region));
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            err.println("cannot ask " + HttpUrl.shown(base) + " for the ID's region: " + e.getMessage());
            return 1;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println(Usage.TEXT);
        return 2;
    }
}
