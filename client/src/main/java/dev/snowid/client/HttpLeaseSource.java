package dev.snowid.client;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.client.auth.BearerSecret;
import dev.snowid.client.auth.RequestAuthorizer;
import dev.snowid.lease.AcquisitionRequest;
import dev.snowid.lease.DateHeaderSkew;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.lease.RequestIdConflictException;
import dev.snowid.protocol.ApiRoute;
import dev.snowid.protocol.BearerChallenge;
import dev.snowid.protocol.ErrorAnswer;
import dev.snowid.protocol.IdsAnswer;
import dev.snowid.protocol.LeaseMessage;
import dev.snowid.protocol.LeaseRoute;
import dev.snowid.protocol.RetryAfter;
import dev.snowid.protocol.SlotMap;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Leases a slot from the snowid function's lease API ({@link LeaseRoute}; a bearer secret or an
 * IAM signature, see {@link RequestAuthorizer}), over
 * plain {@link HttpURLConnection}, so that it brings no HTTP client into the JVM it runs in.
 * Every method returns only what the API confirmed; a timeout or an error is an exception, never
 * an assumed success, so the generator keeps the smaller, confirmed window.
 *
 * <p>Every answer also tells this machine's clock against the API's ({@link #clockSkewMillis()},
 * from the {@code Date} header; a {@link dev.snowid.lease.LeasedGenerator} gives back a lease
 * confirmed while it is beyond its tolerance) and the ID epoch the API issues with
 * ({@link #epochMillis()}): once an epoch is expected ({@link #expectEpoch(long)}), a lease answer
 * naming another is never used.
 */
public final class HttpLeaseSource implements LeaseSource {

    static final int CONNECT_TIMEOUT_MILLIS = 3_000;
    /**
     * POST /leases: the function bounds its worst-case acquisition (probes, a Scan, retries) at
     * 12 s and is itself stopped at 15 s; 20 s waits for its answer, whatever it is, rather than
     * giving up on a lease the function may still grant (it would then be held by nobody until it
     * expires).
     */
    static final int ACQUIRE_READ_TIMEOUT_MILLIS = 20_000;
    /**
     * PUT /leases/{slot}: one conditional write. The renewer starts with half the lease left and
     * tries again every tick, so a shorter timeout leaves room for another attempt within the window.
     */
    static final int RENEW_READ_TIMEOUT_MILLIS = 10_000;
    /** DELETE /leases/{slot}: often on the way out of the JVM; a release that does not arrive costs only the lease's rest. */
    static final int RELEASE_READ_TIMEOUT_MILLIS = 5_000;
    /** Retry-After when the answer gave none, or none could be had. */
    private static final long DEFAULT_RETRY_AFTER_MILLIS = 1_000;

    /** Nothing measured or named yet. */
    private static final long UNKNOWN = Long.MIN_VALUE;

    private final String baseUrl;
    private final RequestAuthorizer authorizer;
    private final String holder;
    private final WallClock clock;
    /** Local clock minus the API's (its Date header) at the latest answer; {@link #UNKNOWN} before any. */
    private volatile long clockSkewMillis = UNKNOWN;
    /** The epoch the latest lease answer named; {@link #UNKNOWN} before any. */
    private volatile long epochMillis = UNKNOWN;
    /** The epoch every lease answer must name; {@link #UNKNOWN}: any (learning it). */
    private volatile long expectedEpochMillis = UNKNOWN;
    /**
     * The id of the acquisition whose answer did not arrive (null: none): the next {@link #acquire()}
     * is its retry and sends it again, so a lease granted to a lost answer is answered again
     * rather than stranded while a second slot is taken.
     */
    private String unansweredAcquisition;

    /**
     * @param baseUrl the function's base URL, the one its routes hang under (a trailing slash is fine)
     * @param secret asked for the bearer secret on every call, so a rotated secret is picked up
     * @param holder who is asking, shown to operators with the lease
     */
    public HttpLeaseSource(URL baseUrl, Supplier<String> secret, String holder) {
        this(baseUrl, secret, holder, WallClock.SYSTEM);
    }

    /** As above, comparing {@code clock} (the one the holder issues IDs by) with the API's. */
    public HttpLeaseSource(URL baseUrl, Supplier<String> secret, String holder, WallClock clock) {
        this(baseUrl, new BearerSecret(secret), holder, clock);
    }

    /** As above, each request authorized by {@code authorizer} (a bearer secret, or a SigV4 signature over the request). */
    public HttpLeaseSource(URL baseUrl, RequestAuthorizer authorizer, String holder, WallClock clock) {
        String base = baseUrl.toString();
        this.baseUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.authorizer = authorizer;
        this.holder = holder;
        this.clock = clock;
    }

    /**
     * @throws EpochMismatchException when an epoch is expected and the API names another; the lease
     *         it granted is released at once
     */
    @Override
    public Lease acquire() {
        String requestId;
        synchronized (this) {
            if (unansweredAcquisition == null) {
                unansweredAcquisition = AcquisitionRequest.drawId();
            }
            requestId = unansweredAcquisition;
        }
        Lease lease;
        try {
            lease = leaseFrom(LeaseRoute.ACQUIRE, call(LeaseRoute.ACQUIRE, null, LeaseMessage.acquireRequest(holder, requestId),
                    ACQUIRE_READ_TIMEOUT_MILLIS));
        } catch (UnsettledRequestException maybeGranted) {
            throw maybeGranted; // no answer, or one that settles nothing: the next acquisition is this one's retry
        } catch (RuntimeException answered) {
            answered(requestId); // refused for certain: the next acquisition is a new one
            throw answered;
        }
        answered(requestId);
        long expected = expectedEpochMillis;
        if (expected != UNKNOWN && epochMillis != expected) {
            EpochMismatchException mismatch = new EpochMismatchException(expected, epochMillis, baseUrl);
            try {
                release(lease, 0); // nothing was issued under it
            } catch (RuntimeException releaseFailed) {
                mismatch.addSuppressed(releaseFailed);
            }
            throw mismatch;
        }
        return lease;
    }

    private synchronized void answered(String requestId) {
        if (requestId.equals(unansweredAcquisition)) {
            unansweredAcquisition = null;
        }
    }

    /**
     * @throws LeaseLostException also when the API now names another epoch than the expected one
     *         (it was redeployed with another): not one more ID may come from this lease
     */
    @Override
    public Lease renew(Lease lease) {
        Lease renewed = leaseFrom(LeaseRoute.RENEW, call(LeaseRoute.RENEW, lease.slot(), LeaseMessage.renewRequest(lease),
                RENEW_READ_TIMEOUT_MILLIS));
        if (!renewed.slot().equals(lease.slot()) || !renewed.owner().equals(lease.owner()) || renewed.fence() != lease.fence()) {
            throw new LeaseLostException("the lease API renewed a different lease (" + renewed + ") than ours (" + lease + ")");
        }
        long expected = expectedEpochMillis;
        if (expected != UNKNOWN && epochMillis != expected) {
            throw new LeaseLostException("the lease API at " + baseUrl + " now issues IDs with epoch " + epochMillis
                    + ", this holder with " + expected + ": IDs of two epochs would overlap, so not one more is issued under the "
                    + lease);
        }
        return renewed;
    }

    @Override
    public void release(Lease lease, long lastIssuedMillis) {
        call(LeaseRoute.RELEASE, lease.slot(), LeaseMessage.releaseRequest(lease, lastIssuedMillis), RELEASE_READ_TIMEOUT_MILLIS);
    }

    /**
     * How far the local clock is ahead of the API's (negative: behind), as of the latest answer;
     * empty before the first ({@link DateHeaderSkew}: off by at most 500 ms plus half the round
     * trip). Skew never breaks uniqueness (the lease window partitions time), but it
     * shortens or delays the usable part of each lease by that much.
     */
    @Override
    public OptionalLong clockSkewMillis() {
        long skew = clockSkewMillis;
        return skew == UNKNOWN ? OptionalLong.empty() : OptionalLong.of(skew);
    }

    /** The ID epoch (unix ms) the latest lease answer named; empty before the first. */
    public OptionalLong epochMillis() {
        long epoch = epochMillis;
        return epoch == UNKNOWN ? OptionalLong.empty() : OptionalLong.of(epoch);
    }

    /** From now on, a lease answer naming another epoch is refused (acquire) or ends the lease (renew). */
    public void expectEpoch(long epochMillis) {
        this.expectedEpochMillis = epochMillis;
    }

    /**
     * After a snapshot is restored: the skew measured before it was another machine's clock, and
     * the id of an acquisition left unanswered would be every restored copy's; both are dropped.
     */
    synchronized void forgetAfterRestore() {
        clockSkewMillis = UNKNOWN;
        unansweredAcquisition = null;
    }

    /** How requests are authorized, for the start-up line. */
    public String authorization() {
        return authorizer.describe();
    }

    /** The base URL calls go to. */
    public String baseUrl() {
        return baseUrl;
    }

    /**
     * The pool as the API sees it ({@code GET /leases}): for operators' tools, not for holders.
     *
     * @throws LeaseStoreUnavailableException when the API cannot be reached or answered something that
     *                                        is not a slot map
     * @throws dev.snowid.client.LeaseSecretRefusedException when the API refused the secret
     */
    public SlotMap slotMap() {
        Answer answer = call(LeaseRoute.SLOT_MAP, null, null, RENEW_READ_TIMEOUT_MILLIS);
        try {
            return SlotMap.read(answer.body);
        } catch (IllegalArgumentException e) {
            throw new LeaseStoreUnavailableException(LeaseRoute.SLOT_MAP + " at " + baseUrl + " answered HTTP " + answer.status
                    + " with a slot map this client cannot read: " + e.getMessage(), DEFAULT_RETRY_AFTER_MILLIS, e);
        }
    }

    private Lease leaseFrom(LeaseRoute route, Answer answer) {
        try {
            Lease lease = LeaseMessage.readLease(answer.body);
            epochMillis = LeaseMessage.readEpochMillis(answer.body);
            return lease;
        } catch (IllegalArgumentException e) { // no readable answer: a retried acquisition may yet read its lease
            throw new UnsettledRequestException(route + " at " + baseUrl + " answered HTTP " + answer.status
                    + " with a lease this client cannot read: " + e.getMessage(), DEFAULT_RETRY_AFTER_MILLIS, e);
        }
    }

    /** One call; any status but the route's success is thrown as what it means ({@link LeaseRoute#failure}). */
    private Answer call(LeaseRoute route, Slot slot, String json, int readTimeoutMillis) {
        String path = route.path(slot);
        Answer answer = exchange(route.method(), path, json, readTimeoutMillis);
        if (answer.status != route.successStatus()) {
            ErrorAnswer error = ErrorAnswer.read(answer.body, answer.challenge);
            throw failure(route.failureOf(answer.status, error.code()), answer.status, error,
                    route.method() + " " + path + " at " + baseUrl + ": " + error.text(), answer.retryAfterMillis);
        }
        return answer;
    }

    /**
     * {@code GET /ids?count=n}, authorized as the lease requests are: for the deployment check, not
     * for holders (they issue their own).
     *
     * @throws LeaseStoreUnavailableException unless the API answered 200 with {@code count} IDs
     */
    public long[] ids(int count) {
        ApiRoute route = ApiRoute.GET_IDS;
        String path = route.template() + "?count=" + count;
        Answer answer = exchange(route.method(), path, null, RENEW_READ_TIMEOUT_MILLIS);
        String at = route.method() + " " + path + " at " + baseUrl;
        if (answer.status != 200) {
            throw new LeaseStoreUnavailableException(at + " answered HTTP " + answer.status + ": " + ErrorAnswer.read(answer.body).text(),
                    answer.retryAfterMillis, null);
        }
        try {
            long[] ids = IdsAnswer.read(answer.body);
            if (ids.length != count) {
                throw new IllegalArgumentException(ids.length + " IDs, not " + count + ": " + answer.body);
            }
            return ids;
        } catch (IllegalArgumentException e) {
            throw new LeaseStoreUnavailableException(at + " answered " + e.getMessage(), DEFAULT_RETRY_AFTER_MILLIS, e);
        }
    }

    /** One request and its answer, whatever the status; the clock is measured against the answer's Date header. */
    private Answer exchange(String method, String path, String json, int readTimeoutMillis) {
        HttpURLConnection connection = null;
        try {
            URL url = new URL(baseUrl + path);
            byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
            connection = (HttpURLConnection) url.openConnection();
            connection.setRequestMethod(method);
            connection.setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
            connection.setReadTimeout(readTimeoutMillis);
            connection.setUseCaches(false);
            connection.setInstanceFollowRedirects(false);
            connection.setRequestProperty("Accept", "application/json");
            if (json != null) {
                connection.setRequestProperty("Content-Type", "application/json");
            }
            // Last, over exactly the bytes below: a signature covers the method, URL and body.
            Map<String, String> credentials = authorizer.headers(method, url, body);
            for (Map.Entry<String, String> header : credentials.entrySet()) {
                connection.setRequestProperty(header.getKey(), header.getValue());
            }
            long sentAt = clock.millis();
            if (json != null) { // a GET with a body would be sent as a POST by HttpURLConnection
                connection.setDoOutput(true);
                // Streamed, so that HttpURLConnection never sends the request again by itself after an
                // I/O error on the answer (it does for any unstreamed request, and for POST unless
                // sun.net.http.retryPost=false): each lease request is sent once, and retried only
                // by the caller, knowingly. The cost: HttpURLConnection drops the body of a 401 to a
                // streamed request, so the API's words on a refused secret come from its challenge header.
                connection.setFixedLengthStreamingMode(body.length);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body);
                }
            }
            int status = connection.getResponseCode();
            long receivedAt = clock.millis();
            OptionalLong skew = DateHeaderSkew.measure(sentAt, receivedAt, connection.getHeaderField("Date"));
            if (skew.isPresent()) {
                clockSkewMillis = skew.getAsLong();
            }
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            String text = in == null ? "" : read(in);
            // An answer that is not a success is shown to a person: never with the credentials this call sent.
            String challenge = connection.getHeaderField(BearerChallenge.HEADER);
            return new Answer(status, status < 300 ? text : withoutCredentials(text, credentials),
                    challenge == null ? null : withoutCredentials(challenge, credentials),
                    RetryAfter.millis(connection.getHeaderField(RetryAfter.HEADER), DEFAULT_RETRY_AFTER_MILLIS));
        } catch (IOException e) { // sent or not, answered or not: nobody here knows
            throw new UnsettledRequestException(method + " " + path + " at " + baseUrl + " failed: " + e,
                    DEFAULT_RETRY_AFTER_MILLIS, e);
        } finally {
            if (connection != null) {
                connection.disconnect();
            }
        }
    }

    /**
     * {@code text} (an answer's words, shown to a person) without the credentials this call sent:
     * a proxy or a gateway that echoes a request's headers must not put the secret into a log.
     */
    private static String withoutCredentials(String text, Map<String, String> credentials) {
        String shown = text;
        for (String value : credentials.values()) {
            int space = value.indexOf(' ');
            String credential = space < 0 ? value : value.substring(space + 1).trim(); // "Bearer <secret>": the secret
            if (credential.length() >= 8) {
                shown = shown.replace(credential, "<credentials, not shown>");
            }
        }
        return shown;
    }

    /** The lease exception a generator understands for what the answer means. */
    private static RuntimeException failure(LeaseRoute.Failure failure, int status, ErrorAnswer error, String detail,
                                            long retryAfterMillis) {
        switch (failure) {
            case NO_FREE_SLOT:
                return new NoFreeSlotException("the lease API has no free slot: " + detail, retryAfterMillis);
            case LEASE_LOST:
                return new LeaseLostException("the slot is no longer ours (HTTP " + status + "): " + detail);
            case CREDENTIALS_REFUSED:
                // A misconfiguration, not an outage.
                return new LeaseSecretRefusedException(status, error.namesCode() ? error.code() : null, detail, retryAfterMillis);
            case REQUEST_ID_CONFLICT: // an answer: the next acquisition draws a fresh id
                return new RequestIdConflictException("the lease API refused this acquisition's request id (HTTP " + status + "): "
                        + detail, retryAfterMillis);
            default:
                return LeaseRoute.leavesOpen(status, error) ? new UnsettledRequestException("HTTP " + status + ": " + detail, retryAfterMillis, null)
                        : new LeaseStoreUnavailableException("HTTP " + status + ": " + detail, retryAfterMillis, null);
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

    /** One answer of the API. */
    private static final class Answer {
        final int status;
        final String body;
        /** Its {@link BearerChallenge} header; null when it had none. */
        final String challenge;
        /** Its Retry-After, or the default. */
        final long retryAfterMillis;

        Answer(int status, String body, String challenge, long retryAfterMillis) {
            this.status = status;
            this.body = body;
            this.challenge = challenge;
            this.retryAfterMillis = retryAfterMillis;
        }
    }
}
