package dev.snowid.protocol;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lease API as it travels, pinned once for both sides: every exchange is a request and its
 * answer written with placeholders ({@code %OWNER%}, {@code %FENCE%}, …). The client's test
 * fills them with {@link #LEASE} and checks that the client sends exactly the request and reads
 * the answer as {@link Exchange#clientSees}; the function's test sends the request, filled with a
 * real lease, to the real handler and checks its answer against the same text. A renamed field,
 * path or code breaks a test on each side.
 */
public final class LeaseApiContract {

    /** The lease the client side works with. */
    public static final Lease LEASE = new Lease(Slot.of(7, 13), "00112233445566778899aabbccddeeff", 3,
            LeaseWindow.of(1_700_000_000_000L, 1_700_000_060_000L));
    public static final String HOLDER = "contract-test";
    /**
     * The acquisition id the function's side sends ({@link #withRequestId}); the client draws its
     * own, so on the client's side {@code %REQUEST_ID%} stays a placeholder, matched by shape.
     */
    public static final String REQUEST_ID = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    /**
     * The setup of a retried acquisition: an acquisition with {@link #REQUEST_ID}, by the same
     * caller ({@link #HOLDER}, and in aws_iam mode the exchange's IAM caller), was granted, its answer lost.
     */
    public static final String GRANTED_TO_THE_REQUEST_ID = "the lease granted to this request id";
    /** The setup of a replay: another holder name sent {@link #REQUEST_ID} first, and was granted a lease. */
    public static final String GRANTED_TO_ANOTHER_HOLDER = "the request id granted to another holder";
    /** The setup of a replay in aws_iam mode: {@link #OTHER_LISTED_CALLER} sent {@link #REQUEST_ID} first, as {@link #HOLDER}. */
    public static final String GRANTED_TO_ANOTHER_CALLER = "the request id granted to another IAM caller, same holder name";
    /** The holder name that sent {@link #REQUEST_ID} first in {@link #GRANTED_TO_ANOTHER_HOLDER}. */
    public static final String OTHER_HOLDER = "another-holder";
    public static final long LAST_ISSUED = 1_700_000_012_345L;
    /** The ID epoch the client side's answers name (the function's side answers with its configured one). */
    public static final long EPOCH = 1_288_834_974_657L;
    /** The function's time in the slot map the client side reads: inside {@link #LEASE}'s window. */
    public static final long NOW = 1_700_000_001_000L;
    public static final long LEASE_MILLIS = 60_000;
    /** In aws_iam mode the function admits this role's sessions (its principal list)... */
    public static final String LISTED_ROLE = "arn:aws:iam::123456789012:role/contract-workload";
    /** ...such as this caller, as API Gateway reports it after verifying the signature... */
    public static final String LISTED_CALLER = "arn:aws:sts::123456789012:assumed-role/contract-workload/i-0contract";
    /** ...or this one, another session of the listed role: admitted too, and another caller... */
    public static final String OTHER_LISTED_CALLER = "arn:aws:sts::123456789012:assumed-role/contract-workload/i-0another";
    /** ...and not this one, verified as well but not listed. */
    public static final String UNLISTED_CALLER = "arn:aws:sts::123456789012:assumed-role/Admin/alice";

    private static final String LEASE_ANSWER = "{\"slot\":%SLOT%,\"datacenter\":%DATACENTER%,\"machine\":%MACHINE%,"
            + "\"owner\":\"%OWNER%\",\"fence\":%FENCE%,\"floor\":%FLOOR%,\"expiresAt\":%EXPIRES_AT%,\"epoch\":%EPOCH%}";
    /**
     * The slot map of a pool that is one slot, not split, held by the lease: the owner token
     * appears nowhere in it.
     */
    private static final String SLOT_MAP_ANSWER = "{\"now\":%NOW%,\"leaseMillis\":%LEASE_MILLIS%,"
            + "\"parts\":[{\"part\":\"shared\",\"size\":1,\"held\":1,\"free\":0,\"earliestExpiry\":%EXPIRES_AT%,\"slots\":\"%SLOT%\"}],"
            + "\"leases\":[{\"slot\":%SLOT%,\"node\":\"%DATACENTER%:%MACHINE%\",\"part\":\"shared\",\"holder\":\"%HOLDER%\","
            + "\"fence\":%FENCE%,\"floor\":%FLOOR%,\"expiresAt\":%EXPIRES_AT%}],"
            + "\"region\":\"%NAME%\",\"stack\":\"%NAME%\",\"guard\":\"unguarded\",\"claims\":null}";
    private static final String CLAIM = "{\"owner\":\"%OWNER%\",\"fence\":%FENCE%}";
    private static final String ACQUISITION = "{\"holder\":\"%HOLDER%\",\"requestId\":\"%REQUEST_ID%\"}";

    /** Whatever the exact text, these placeholders stand for a value of this shape in an answer. */
    private static final Map<String, String> SHAPES = shapes();

    private LeaseApiContract() {
    }

    /** One request and its answer. */
    public static final class Exchange {
        public final String name;
        public final LeaseRoute route;
        /** How the function side gets into the state this exchange needs; the client side needs none. */
        public final String setup;
        public final boolean authorized;
        public final String requestBody;
        public final int status;
        /** Headers the answer must carry, with placeholders for their values. */
        public final Map<String, String> answerHeaders;
        public final String answerBody;
        /**
         * What the client makes of the answer: {@code Lease.class}, {@code SlotMap.class}, {@code Void.class},
         * or the {@link LeaseRoute.Failure} it means (each holder turns that into its own exception).
         */
        public final Object clientSees;
        /**
         * Null: bearer mode (the secret, when {@link #authorized}). Else the function is in aws_iam
         * mode admitting {@link #LISTED_ROLE}, the client signs the request with SigV4, and API
         * Gateway reports this caller to the function.
         */
        public final String iamCaller;

        Exchange(String name, LeaseRoute route, String setup, boolean authorized, String requestBody, int status,
                 Map<String, String> answerHeaders, String answerBody, Object clientSees) {
            this(name, route, setup, authorized, requestBody, status, answerHeaders, answerBody, clientSees, null);
        }

        Exchange(String name, LeaseRoute route, String setup, boolean authorized, String requestBody, int status,
                 Map<String, String> answerHeaders, String answerBody, Object clientSees, String iamCaller) {
            this.name = name;
            this.route = route;
            this.setup = setup;
            this.authorized = authorized;
            this.requestBody = requestBody;
            this.status = status;
            this.answerHeaders = answerHeaders;
            this.answerBody = answerBody;
            this.clientSees = clientSees;
            this.iamCaller = iamCaller;
        }

        @Override
        public String toString() {
            return name + ": " + route;
        }
    }

    public static List<Exchange> exchanges() {
        Map<String, String> retryAfter = Collections.singletonMap("Retry-After", "%SECONDS%");
        Map<String, String> none = Collections.emptyMap();
        Map<String, String> bearer = Collections.singletonMap("WWW-Authenticate",
                "Bearer realm=\"snowid-leases\", error=\"invalid_token\", error_description=%MESSAGE%");
        return Arrays.asList(
                new Exchange("acquire", LeaseRoute.ACQUIRE, "a free slot", true,
                        ACQUISITION, 201, none, LEASE_ANSWER, Lease.class),
                // The pool is one slot, held by the first attempt: only the same lease again can be the answer.
                new Exchange("acquire, retried after a lost answer", LeaseRoute.ACQUIRE, GRANTED_TO_THE_REQUEST_ID, true,
                        ACQUISITION, 201, none, LEASE_ANSWER, Lease.class),
                // The id answers the caller that sent it first, and nobody else: not its lease, not any other.
                new Exchange("acquire, request id sent first by another holder", LeaseRoute.ACQUIRE, GRANTED_TO_ANOTHER_HOLDER, true,
                        ACQUISITION, 409, none, error("request_id_conflict"), LeaseRoute.Failure.REQUEST_ID_CONFLICT),
                new Exchange("acquire, pool full", LeaseRoute.ACQUIRE, "every slot held", true,
                        ACQUISITION, 503, retryAfter, error("no_free_slot"), LeaseRoute.Failure.NO_FREE_SLOT),
                new Exchange("acquire, secret refused", LeaseRoute.ACQUIRE, "a free slot", false,
                        ACQUISITION, 401, bearer, error("unauthorized"), LeaseRoute.Failure.CREDENTIALS_REFUSED),
                new Exchange("renew", LeaseRoute.RENEW, "the lease held", true,
                        CLAIM, 200, none, LEASE_ANSWER, Lease.class),
                new Exchange("renew, taken over", LeaseRoute.RENEW, "the slot held by a newer lease", true,
                        CLAIM, 409, none, error("lease_lost"), LeaseRoute.Failure.LEASE_LOST),
                new Exchange("renew, slot outside the pool", LeaseRoute.RENEW, "a slot outside the pool", true,
                        CLAIM, 404, none, error("not_found"), LeaseRoute.Failure.LEASE_LOST),
                new Exchange("release", LeaseRoute.RELEASE, "the lease held", true,
                        "{\"owner\":\"%OWNER%\",\"fence\":%FENCE%,\"lastIssued\":%LAST_ISSUED%}", 204, none, "", Void.class),
                // A retried release whose first answer was lost: not a lost lease.
                new Exchange("release, already released by its holder", LeaseRoute.RELEASE, "the lease released", true,
                        "{\"owner\":\"%OWNER%\",\"fence\":%FENCE%,\"lastIssued\":%LAST_ISSUED%}", 204, none, "", Void.class),
                new Exchange("release, taken over", LeaseRoute.RELEASE, "the slot held by a newer lease", true,
                        "{\"owner\":\"%OWNER%\",\"fence\":%FENCE%,\"lastIssued\":%LAST_ISSUED%}", 409, none, error("lease_lost"),
                        LeaseRoute.Failure.LEASE_LOST),
                new Exchange("slot map", LeaseRoute.SLOT_MAP, "the lease held", true,
                        "", 200, none, SLOT_MAP_ANSWER, SlotMap.class),
                new Exchange("slot map, secret refused", LeaseRoute.SLOT_MAP, "a free slot", false,
                        "", 401, bearer, error("unauthorized"), LeaseRoute.Failure.CREDENTIALS_REFUSED),
                new Exchange("acquire, signed (IAM)", LeaseRoute.ACQUIRE, "a free slot", true,
                        ACQUISITION, 201, none, LEASE_ANSWER, Lease.class, LISTED_CALLER),
                new Exchange("acquire, signed (IAM), retried after a lost answer", LeaseRoute.ACQUIRE, GRANTED_TO_THE_REQUEST_ID, true,
                        ACQUISITION, 201, none, LEASE_ANSWER, Lease.class, LISTED_CALLER),
                new Exchange("acquire, signed (IAM), request id sent first by another IAM caller", LeaseRoute.ACQUIRE,
                        GRANTED_TO_ANOTHER_CALLER, true, ACQUISITION, 409, none, error("request_id_conflict"),
                        LeaseRoute.Failure.REQUEST_ID_CONFLICT, LISTED_CALLER),
                new Exchange("acquire, IAM caller not listed", LeaseRoute.ACQUIRE, "a free slot", true,
                        ACQUISITION, 403, none, error("forbidden"), LeaseRoute.Failure.CREDENTIALS_REFUSED,
                        UNLISTED_CALLER));
    }

    private static String error(String code) {
        return "{\"error\":\"" + code + "\",\"message\":%MESSAGE%}";
    }

    /** The template with every placeholder replaced by the lease's (or the given) values. */
    public static String fill(String template, Lease lease, String holder, long lastIssued, String message, long seconds) {
        return template
                .replace("%SLOT%", Integer.toString(lease.slot().index()))
                .replace("%DATACENTER%", Integer.toString(lease.slot().datacenter()))
                .replace("%MACHINE%", Integer.toString(lease.slot().machine()))
                .replace("%OWNER%", lease.owner())
                .replace("%FENCE%", Long.toString(lease.fence()))
                .replace("%FLOOR%", Long.toString(lease.window().floor()))
                .replace("%EXPIRES_AT%", Long.toString(lease.window().expiresAt()))
                .replace("%EPOCH%", Long.toString(EPOCH))
                .replace("%HOLDER%", holder)
                .replace("%LAST_ISSUED%", Long.toString(lastIssued))
                .replace("%MESSAGE%", "\"" + message + "\"")
                .replace("%SECONDS%", Long.toString(seconds))
                .replace("%NOW%", Long.toString(NOW))
                .replace("%LEASE_MILLIS%", Long.toString(LEASE_MILLIS));
    }

    /** The text with the acquisition id filled in (the function's side; the client's draws its own). */
    public static String withRequestId(String text, String requestId) {
        return text.replace("%REQUEST_ID%", requestId);
    }

    /** Whether {@code text} has the template's exact shape: the same text, any value of the right kind in each placeholder. */
    public static boolean matches(String template, String text) {
        StringBuilder regex = new StringBuilder();
        Matcher placeholder = Pattern.compile("%[A-Z_]+%").matcher(template);
        int at = 0;
        while (placeholder.find()) {
            regex.append(Pattern.quote(template.substring(at, placeholder.start())));
            String shape = SHAPES.get(placeholder.group());
            if (shape == null) {
                throw new IllegalArgumentException("no shape for " + placeholder.group());
            }
            regex.append(shape);
            at = placeholder.end();
        }
        regex.append(Pattern.quote(template.substring(at)));
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(text).matches();
    }

    private static Map<String, String> shapes() {
        Map<String, String> shapes = new LinkedHashMap<>();
        String whole = "(0|[1-9][0-9]{0,18})";
        for (String number : new String[] {"%SLOT%", "%DATACENTER%", "%MACHINE%", "%FENCE%", "%FLOOR%", "%EXPIRES_AT%",
                "%LAST_ISSUED%", "%SECONDS%", "%EPOCH%", "%NOW%", "%LEASE_MILLIS%"}) {
            shapes.put(number, whole);
        }
        shapes.put("%OWNER%", "[0-9a-f]{32}");
        shapes.put("%REQUEST_ID%", "[0-9a-f]{32}");
        shapes.put("%HOLDER%", "[^\"\\\\]{1,200}");
        shapes.put("%NAME%", "[!#-.0-\\[\\]-~]{1,128}");
        shapes.put("%MESSAGE%", "\"([^\"\\\\]|\\\\.)+\"");
        return shapes;
    }
}
