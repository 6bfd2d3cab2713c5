package dev.snowid.agent.cli;

import dev.snowid.LeaseWindow;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.IdsAnswer;
import dev.snowid.protocol.SlotMap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code check <lease url>}: the deployment check an operator runs right after deploying (or
 * against the local runner). One line per step; the first failing step ends the check with exit
 * status 1 and its name, after giving back a lease it took. Exit 2: wrong arguments.
 *
 * <p>The steps, in order: {@code lease} (POST /leases), {@code clock} (this machine's clock against
 * the API's Date header, within the default tolerance), {@code issue} (IDs under the lease decode
 * to its slot and lie inside its window), {@code slot-map} (GET /leases: occupancy per part, our
 * lease in it), {@code ids} (GET /ids decodes with the API's epoch), {@code release}
 * (DELETE /leases/{slot}).
 */
public final class CheckCommand {

    static final String HOLDER = "snowid-agent check";
    /** IDs issued under the check's lease: enough to cross a millisecond, few enough to be instant. */
    static final int ISSUED = 5_000;
    /** IDs asked of GET /ids. */
    static final int API_IDS = 3;
    private static final int READ_TIMEOUT_MILLIS = 10_000;

    private final String url;
    private final HttpLeaseSource source;
    private final PrintStream out;
    private final WallClock clock = WallClock.SYSTEM;

    private CheckCommand(URL url, HttpLeaseSource source, PrintStream out) {
        this.url = url.toString().endsWith("/") ? url.toString().substring(0, url.toString().length() - 1) : url.toString();
        this.source = source;
        this.out = out;
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
        HttpLeaseSource source;
        try {
            source = CliSettings.leaseApi(env, url, HOLDER, "the check takes a lease, which needs");
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        }
        return new CheckCommand(url, source, out).run(err);
    }

    private int run(PrintStream err) {
        out.println("check " + url);
        Lease lease;
        try {
            lease = source.acquire();
        } catch (RuntimeException e) {
            return failed("lease", e, err);
        }
        long epoch = source.epochMillis().orElse(SnowflakeCodec.TWITTER_EPOCH_MILLIS);
        SnowflakeCodec codec = SnowflakeCodec.withEpoch(epoch);
        LeaseWindow window = lease.window();
        ok("lease", "slot " + lease.slot() + " (fence " + lease.fence() + "), window " + window.floor() + " to "
                + window.expiresAt() + " (unix ms, " + window.remainingMillis(clock.millis()) + " ms left), epoch " + epoch);
        long lastIssued = 0;
        String step = "clock";
        try {
            clock();
            step = "issue";
            lastIssued = issue(lease, codec);
            step = "slot-map";
            slotMap(lease);
            step = "ids";
            ids(codec);
        } catch (RuntimeException | CheckFailed e) {
            giveBack(lease, lastIssued);
            return failed(step, e, err);
        }
        try {
            source.release(lease, lastIssued);
        } catch (RuntimeException e) {
            return failed("release", e, err);
        }
        ok("release", "slot " + lease.slot() + " given back");
        out.println("check passed: 6 steps");
        return 0;
    }

    private void clock() throws CheckFailed {
        OptionalLong skew = source.clockSkewMillis();
        if (!skew.isPresent()) {
            throw new CheckFailed("the lease API's answer had no readable Date header");
        }
        long tolerated = LeaseTerms.DEFAULT.toleratedSkewMillis();
        String measured = "this clock is " + Math.abs(skew.getAsLong()) + " ms " + (skew.getAsLong() >= 0 ? "ahead of" : "behind")
                + " the API's (Date header, ±500 ms plus half the round trip)";
        if (Math.abs(skew.getAsLong()) > tolerated) {
            throw new CheckFailed(measured + ", more than the default tolerance of " + tolerated
                    + " ms: holders on this clock would give their leases back; fix the machine's time sync (NTP)");
        }
        ok("clock", measured + "; tolerated " + tolerated + " ms");
    }

    /** Issues {@link #ISSUED} IDs under the lease; returns the last one's time. */
    private long issue(Lease lease, SnowflakeCodec codec) throws CheckFailed {
        awaitFloor(lease.window());
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(lease.slot()).window(lease.window()).codec(codec).build();
        long previous = -1;
        for (int i = 0; i < ISSUED; i++) {
            long id = generator.nextId();
            SnowflakeId decoded = codec.decode(id);
            if (!decoded.slot().equals(lease.slot())) {
                throw new CheckFailed("ID " + id + " decodes to slot " + decoded.slot() + ", not the leased " + lease.slot());
            }
            if (!lease.window().contains(decoded.unixMillis())) {
                throw new CheckFailed("ID " + id + " has time " + decoded.unixMillis() + ", outside the window " + lease.window());
            }
            if (id <= previous) {
                throw new CheckFailed("ID " + id + " does not increase on " + previous);
            }
            previous = id;
        }
        long last = generator.close();
        ok("issue", ISSUED + " IDs, increasing, all slot " + lease.slot() + ", all inside the window; last " + previous);
        return last;
    }

    /** A fresh lease may start a little ahead (the previous holder's last ID); wait for it within the window. */
    private void awaitFloor(LeaseWindow window) throws CheckFailed {
        while (clock.millis() < window.floor()) {
            if (window.floor() >= window.expiresAt()) {
                throw new CheckFailed("the lease's window " + window + " is empty");
            }
            try {
                Thread.sleep(Math.min(100, Math.max(1, window.floor() - clock.millis())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CheckFailed("interrupted while waiting for the lease's floor");
            }
        }
    }

    private void slotMap(Lease lease) throws CheckFailed {
        SlotMap map = source.slotMap();
        boolean ours = false;
        for (SlotMap.Entry entry : map.leases()) {
            ours |= entry.lease().slot().equals(lease.slot()) && entry.lease().holder().equals(HOLDER);
        }
        if (!ours) {
            throw new CheckFailed("the slot map does not show slot " + lease.slot() + " held by '" + HOLDER + "'");
        }
        StringBuilder parts = new StringBuilder();
        for (SlotMap.Part part : map.parts()) {
            parts.append(parts.length() == 0 ? "" : ", ").append(part.name()).append(' ').append(part.held()).append('/')
                    .append(part.size()).append(" held");
        }
        ok("slot-map", parts + "; ours among them; leases last " + map.leaseMillis() + " ms");
    }

    private void ids(SnowflakeCodec codec) throws CheckFailed {
        String path = "/ids?count=" + API_IDS;
        HttpURLConnection connection = null;
        int status;
        String body;
        try {
            connection = (HttpURLConnection) new URL(url + path).openConnection();
            connection.setConnectTimeout(3_000);
            connection.setReadTimeout(READ_TIMEOUT_MILLIS);
            connection.setInstanceFollowRedirects(false);
            connection.setRequestProperty("Accept", "application/json");
            status = connection.getResponseCode();
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            body = in == null ? "" : read(in);
        } catch (IOException e) {
            throw new CheckFailed("GET " + path + " failed: " + e);
        } finally {
            if (connection != null) {
                connection.disconnect();
            }
        }
        if (status != 200) {
            throw new CheckFailed("GET " + path + " answered HTTP " + status + ": " + body);
        }
        List<SnowflakeId> decoded = new ArrayList<>();
        for (long id : idsIn(body)) {
            decoded.add(codec.decode(id));
        }
        if (decoded.size() != API_IDS) {
            throw new CheckFailed("GET " + path + " answered " + decoded.size() + " IDs, not " + API_IDS + ": " + body);
        }
        SnowflakeId first = decoded.get(0);
        long age = clock.millis() - first.unixMillis();
        ok("ids", "GET " + path + ": " + API_IDS + " IDs from slot " + first.slot() + ", first " + first.value() + " at "
                + first.instant() + " (" + age + " ms ago by this clock)");
    }

    /** {@code {"ids":["…",…]}}: the decimal strings, in order, read by the protocol's reader. */
    static long[] idsIn(String body) throws CheckFailed {
        try {
            return IdsAnswer.read(body);
        } catch (IllegalArgumentException e) {
            throw new CheckFailed(e.getMessage());
        }
    }

    private void giveBack(Lease lease, long lastIssued) {
        try {
            source.release(lease, lastIssued);
            out.println("  (the check's lease on slot " + lease.slot() + " was given back)");
        } catch (RuntimeException e) {
            out.println("  (the check's lease on slot " + lease.slot() + " could not be given back; it runs out by itself: " + e.getMessage() + ")");
        }
    }

    private void ok(String step, String detail) {
        out.println(String.format("ok   %-8s %s", step, detail));
    }

    private int failed(String step, Exception e, PrintStream err) {
        out.println(String.format("FAIL %-8s %s", step, e.getMessage()));
        err.println("check failed at step '" + step + "'");
        return 1;
    }

    private static String read(InputStream in) throws IOException {
        try (InputStream stream = in) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            for (int n; (n = stream.read(buffer)) > 0; ) {
                bytes.write(buffer, 0, n);
            }
            return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println(problem);
        err.println("usage: " + CliSettings.SECRET_VARIABLE + "=<secret> java -jar snowid-agent.jar check <lease url>");
        err.println("       " + CliSettings.AUTH_VARIABLE + "=aws_iam java -jar snowid-agent-iam.jar check <lease url>");
        return 2;
    }

    /** A step's finding: what was wrong, in the operator's words. */
    static final class CheckFailed extends Exception {
        CheckFailed(String message) {
            super(message);
        }
    }
}
