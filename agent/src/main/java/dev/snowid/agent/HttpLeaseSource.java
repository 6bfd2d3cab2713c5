package dev.snowid.agent;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.NoFreeSlotException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Leases a slot from the snowid function's lease API ({@code POST /leases},
 * {@code PUT /leases/{slot}}, {@code DELETE /leases/{slot}}, bearer secret), over plain
 * {@link HttpURLConnection} so the agent brings no HTTP client into legacy JVMs. Every method
 * returns only what the API confirmed; a timeout or an error is an exception, never an assumed
 * success, so the generator keeps the smaller, confirmed window.
 */
final class HttpLeaseSource implements LeaseSource {

    static final int CONNECT_TIMEOUT_MILLIS = 3_000;
    /**
     * POST /leases: the function bounds its worst-case acquisition (probes, a Scan, retries) at
     * 12 s and is itself stopped at 15 s; 20 s waits for its answer, whatever it is, rather than
     * giving up on a lease the function may still grant (it would then be held by nobody until it
     * expires). Only premain and a call whose window has ended wait this long.
     */
    static final int ACQUIRE_READ_TIMEOUT_MILLIS = 20_000;
    /**
     * PUT /leases/{slot}: one conditional write. The daemon renews with half the lease left and
     * tries again every tick, so a shorter timeout leaves room for another attempt within the
     * window; an application thread whose window has ended may wait on the renewal in flight.
     */
    static final int RENEW_READ_TIMEOUT_MILLIS = 10_000;
    /**
     * DELETE /leases/{slot}: runs in the shutdown hook, delaying the JVM's exit; a release that
     * does not arrive costs nothing but the slot's rest of the lease.
     */
    static final int RELEASE_READ_TIMEOUT_MILLIS = 5_000;

    private final String baseUrl;
    private final String authorization;
    private final String holder;
    /** Local clock minus the API's (its Date header, whole seconds) at the latest answer; 0 before any. */
    private volatile long clockSkewMillis;

    HttpLeaseSource(URL baseUrl, String secret, String holder) {
        String base = baseUrl.toString();
        this.baseUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.authorization = "Bearer " + secret;
        this.holder = holder;
    }

    @Override
    public Lease acquire() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("holder", holder);
        Response response = call("POST", "/leases", body, ACQUIRE_READ_TIMEOUT_MILLIS);
        if (response.status == 201 || response.status == 200) {
            return leaseOf(response);
        }
        if (response.status == 503 && response.errorCode().contains("slot")) {
            throw new NoFreeSlotException("the lease API has no free slot: " + response.errorMessage(), response.retryAfterMillis());
        }
        throw unexpected("POST /leases", response);
    }

    @Override
    public Lease renew(Lease lease) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("owner", lease.owner());
        body.put("fence", lease.fence());
        Response response = call("PUT", "/leases/" + lease.slot().index(), body, RENEW_READ_TIMEOUT_MILLIS);
        if (response.status == 200) {
            Lease renewed = leaseOf(response);
            if (!renewed.slot().equals(lease.slot()) || !renewed.owner().equals(lease.owner()) || renewed.fence() != lease.fence()) {
                throw new LeaseLostException("the lease API renewed a different lease (" + renewed + ") than ours (" + lease + ")");
            }
            // The server's window as it is: its expiry may be earlier than ours (computed by a clock
            // behind ours); LeasedGenerator takes a shorter window safely, after its last ID.
            return renewed;
        }
        if (response.status == 409 || response.status == 404) {
            throw new LeaseLostException("slot " + lease.slot() + " is no longer ours (HTTP " + response.status + "): " + response.errorMessage());
        }
        throw unexpected("PUT /leases/" + lease.slot().index(), response);
    }

    @Override
    public void release(Lease lease, long lastIssuedMillis) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("owner", lease.owner());
        body.put("fence", lease.fence());
        body.put("lastIssued", lastIssuedMillis);
        Response response = call("DELETE", "/leases/" + lease.slot().index(), body, RELEASE_READ_TIMEOUT_MILLIS);
        if (response.status == 204 || response.status == 200) {
            return;
        }
        if (response.status == 409 || response.status == 404) {
            throw new LeaseLostException("slot " + lease.slot() + " is no longer ours (HTTP " + response.status + "): " + response.errorMessage());
        }
        throw unexpected("DELETE /leases/" + lease.slot().index(), response);
    }

    /**
     * How far the local clock is ahead of the API's (negative: behind), as of the latest answer,
     * to within a second. Skew never breaks uniqueness (the lease window partitions time), but it
     * shortens or delays the usable part of each lease by that much.
     */
    long clockSkewMillis() {
        return clockSkewMillis;
    }

    private static Lease leaseOf(Response response) {
        try {
            Map<String, Object> json = FlatJson.parse(response.body);
            Slot slot = Slot.of(number(json, "datacenter").intValue(), number(json, "machine").intValue());
            if (json.containsKey("slot") && number(json, "slot").intValue() != slot.index()) {
                throw new IllegalArgumentException("slot " + json.get("slot") + " does not match datacenter:machine " + slot);
            }
            Object owner = json.get("owner");
            if (!(owner instanceof String)) {
                throw new IllegalArgumentException("no owner token");
            }
            return new Lease(slot, (String) owner, number(json, "fence"),
                    LeaseWindow.of(number(json, "floor"), number(json, "expiresAt")));
        } catch (IllegalArgumentException e) {
            throw new LeaseStoreUnavailableException("the lease API answered HTTP " + response.status
                    + " with a lease the agent cannot read: " + e.getMessage(), 1000, e);
        }
    }

    private static Long number(Map<String, Object> json, String name) {
        Object value = json.get(name);
        if (!(value instanceof Long)) {
            throw new IllegalArgumentException("'" + name + "' is missing or not a whole number");
        }
        return (Long) value;
    }

    private LeaseStoreUnavailableException unexpected(String call, Response response) {
        String hint = response.status == 401 || response.status == 403
                ? " (the bearer secret was refused: check " + AgentSettings.envName(AgentSettings.LEASE_SECRET) + ")"
                : "";
        return new LeaseStoreUnavailableException(call + " at " + baseUrl + " answered HTTP " + response.status + hint + ": "
                + response.errorMessage(), response.retryAfterMillis(), null);
    }

    private Response call(String method, String path, Map<String, Object> body, int readTimeoutMillis) {
        HttpURLConnection connection = null;
        try {
            connection = (HttpURLConnection) new URL(baseUrl + path).openConnection();
            connection.setRequestMethod(method);
            connection.setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
            connection.setReadTimeout(readTimeoutMillis);
            connection.setUseCaches(false);
            connection.setInstanceFollowRedirects(false);
            connection.setRequestProperty("Authorization", authorization);
            connection.setRequestProperty("Accept", "application/json");
            byte[] json = FlatJson.write(body).getBytes(StandardCharsets.UTF_8);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setDoOutput(true);
            connection.setFixedLengthStreamingMode(json.length);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(json);
            }
            int status = connection.getResponseCode();
            long serverDate = connection.getHeaderFieldDate("Date", 0);
            if (serverDate > 0) {
                clockSkewMillis = System.currentTimeMillis() - serverDate;
            }
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            return new Response(status, in == null ? "" : read(in), connection.getHeaderField("Retry-After"));
        } catch (IOException e) {
            throw new LeaseStoreUnavailableException(method + " " + path + " at " + baseUrl + " failed: " + e, 1000, e);
        } finally {
            if (connection != null) {
                connection.disconnect();
            }
        }
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

    /** One answer of the API: status, body and the Retry-After header if any. */
    private static final class Response {
        final int status;
        final String body;
        final String retryAfter;

        Response(int status, String body, String retryAfter) {
            this.status = status;
            this.body = body;
            this.retryAfter = retryAfter;
        }

        String errorCode() {
            Object code = errorField("error");
            return code == null ? "" : code.toString();
        }

        String errorMessage() {
            Object message = errorField("message");
            if (message != null) {
                return errorCode().isEmpty() ? message.toString() : errorCode() + ": " + message;
            }
            return body.isEmpty() ? "(no body)" : body.length() > 300 ? body.substring(0, 300) + "…" : body;
        }

        private Object errorField(String name) {
            try {
                return FlatJson.parse(body).get(name);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        long retryAfterMillis() {
            try {
                return retryAfter == null ? 1000 : Math.max(1, Long.parseLong(retryAfter.trim())) * 1000;
            } catch (NumberFormatException e) {
                return 1000;
            }
        }
    }
}
