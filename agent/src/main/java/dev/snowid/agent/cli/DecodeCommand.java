package dev.snowid.agent.cli;

import dev.snowid.InvalidIdException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.internal.WholeNumber;
import java.io.PrintStream;
import java.util.OptionalLong;

/**
 * {@code decode [--epoch <unix ms>] <id>}: prints an ID's fields, one {@code name: value} per
 * line. Exit 0 on success, 1 for a value that is not an ID, 2 for wrong arguments.
 */
public final class DecodeCommand {

    private DecodeCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        SnowflakeCodec codec = SnowflakeCodec.TWITTER;
        String id = null;
        for (int i = 0; i < args.length; i++) {
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
        return 0;
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println(Usage.TEXT);
        return 2;
    }
}
