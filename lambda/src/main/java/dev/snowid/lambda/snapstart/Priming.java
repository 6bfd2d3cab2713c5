package dev.snowid.lambda.snapstart;

import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.http.HttpApiEvent;
import dev.snowid.lease.LeaseStore;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * SnapStart priming, run in {@code beforeCheckpoint}: the request path is exercised once, so its
 * classes are loaded and initialised in the snapshot rather than on each restored environment's
 * first request. Nothing here can change state or identify a holder: the events take no lease
 * (a decode, error answers, {@code /health}), and the lease table's request building,
 * marshalling, signing and response parsing run against an answer made in-process, never the
 * network ({@link DynamoDbLeaseStore#primeRequestPath()}). No randomness of our own is drawn.
 */
public final class Priming {

    /** The request path from event bytes to response bytes, without its log line and metrics. */
    @FunctionalInterface
    public interface Path {
        void answer(byte[] event);
    }

    /**
     * Payload 2.0 and 1.0 events, as API Gateway sends them, for routes that take no lease. Built
     * when priming runs, not with the handler: an environment without SnapStart never primes.
     */
    static List<String> events() {
        return List.of(
                v2("GET", "/ids/1724551110457221119", ""),   // decode
                v2("GET", "/ids", "count=0"),                  // /ids refused before any lease: invalid_count
                v2("POST", "/leases", ""),                     // no credentials: 401 before any lease
                v2("GET", "/health", ""),
                v2("GET", "/no-such-route", ""),
                "{\"resource\":\"/ids/{id}\",\"path\":\"/ids/1724551110457221119\",\"httpMethod\":\"GET\",\"headers\":{\"Accept\":\"*/*\"},"
                        + "\"requestContext\":{\"requestId\":\"priming\",\"stage\":\"prod\"},\"isBase64Encoded\":false}");
    }

    private final Path path;
    private final LeaseStore store;

    public Priming(Path path, LeaseStore store) {
        this.path = path;
        this.store = store;
    }

    /** Runs the priming; says what was primed, for the hook's log line. */
    String run() {
        List<String> events = events();
        for (String event : events) {
            path.answer(event.getBytes(StandardCharsets.UTF_8));
        }
        if (store instanceof DynamoDbLeaseStore dynamoDb) {
            dynamoDb.primeRequestPath();
            return events.size() + " events (decode, error answers, health) and the lease table's requests (answered in-process)";
        }
        return events.size() + " events (decode, error answers, health)";
    }

    /** With the route key API Gateway would match, so that priming takes the path real requests take. */
    private static String v2(String method, String path, String query) {
        return HttpApiEvent.request(method, path).routeKey(Endpoint.routeKeyOf(method, path)).rawQuery(query)
                .header("accept", "*/*").header("user-agent", "snowid-priming").requestId("priming").json();
    }
}
