package dev.snowid.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.snowid.lambda.api.LeaseRouteAuth;
import dev.snowid.lambda.http.ApiError;
import dev.snowid.lambda.http.ApiResponse;
import dev.snowid.local.http.HeadHandler;
import java.io.IOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * What the runner decides on a request's head, before its body is read (on the server's I/O
 * thread, so nothing here waits): the {@code Host} ({@link LocalHost}), the request's
 * {@link RouteLane} by the route it matches, and for the lease lane the credentials, as the deployed
 * gateway's authorizer checks them before the function runs. A request refused here costs no
 * body read, no lane thread and no call to the engine. The others go to their lane's threads once
 * their body is in, or are answered 503 at once when the lane's queue is full.
 */
final class LaneDispatch implements HeadHandler {

    private final Map<RouteLane, HttpHandler> handlers;
    /** The lease lane's check, with the lease handler's own settings. */
    private final LeaseRouteAuth leaseAuth;
    private final Map<RouteLane, ThreadPoolExecutor> threads = new EnumMap<>(RouteLane.class);

    LaneDispatch(Map<RouteLane, HttpHandler> handlers, LeaseRouteAuth leaseAuth) {
        this.handlers = new EnumMap<>(handlers);
        this.leaseAuth = leaseAuth;
        for (RouteLane lane : RouteLane.values()) {
            threads.put(lane, RequestThreads.lane(lane));
        }
    }

    @Override
    public HttpHandler onHead(HttpExchange exchange) throws IOException {
        List<String> hosts = exchange.getRequestHeaders().get("Host");
        if (hosts == null || hosts.size() != 1 || !LocalHost.allowed(hosts.get(0))) {
            LocalAnswers.refuse(exchange, 421, "misdirected_request", "this server answers only Host " + LocalHost.allowedText()
                    + " (the local runner is for this machine; a Host of another name is a web page reaching it through DNS rebinding)", -1);
            return null;
        }
        RouteLane lane = RouteLane.of(exchange.getRequestMethod(), RequestTarget.rawPath(exchange.getRequestURI()));
        if (lane == RouteLane.LEASES) {
            try {
                leaseAuth.check(lowerCaseNames(exchange), Optional.empty()); // the runner verifies no IAM signature
            } catch (ApiError refused) {
                LocalAnswers.answer(exchange, ApiResponse.error(refused));
                return null;
            }
        }
        return whole -> toLane(lane, whole);
    }

    private void toLane(RouteLane lane, HttpExchange exchange) throws IOException {
        HttpHandler handler = handlers.get(lane);
        try {
            threads.get(lane).execute(() -> {
                try {
                    handler.handle(exchange);
                } catch (IOException | RuntimeException e) {
                    e.printStackTrace(); // the handler answers every request itself: this is the runner's own fault
                } finally {
                    exchange.close(); // unanswered: the connection closes
                }
            });
        } catch (RejectedExecutionException full) {
            LocalAnswers.refuse(exchange, 503, "unavailable", "the local runner's " + lane.role() + " queue is full ("
                    + RequestThreads.LANE_QUEUE + " requests waiting); retry shortly", 1);
        }
    }

    /** The headers as API Gateway hands them to the function: names in lower case, repeated ones joined with commas. */
    private static Map<String, String> lowerCaseNames(HttpExchange exchange) {
        Map<String, String> headers = new HashMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
        return headers;
    }

    /** Whether every thread of the lane is busy and its queue full: the next request is refused. */
    boolean full(RouteLane lane) {
        ThreadPoolExecutor pool = threads.get(lane);
        return pool.getActiveCount() == pool.getMaximumPoolSize() && pool.getQueue().remainingCapacity() == 0;
    }

    /** Stops every lane's threads. */
    void shutdownNow() {
        threads.values().forEach(ExecutorService::shutdownNow);
    }
}
