package dev.snowid.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The server's one handler, run on a reader thread once the request's headers are in: checks
 * {@code Host} ({@link LocalHost}), picks the request's {@link RouteLane} by the route it matches, and
 * hands the exchange to that lane's threads, or answers 503 at once when the lane's queue is full.
 */
final class LaneDispatch implements HttpHandler {

    private final Map<RouteLane, HttpHandler> handlers;
    private final Map<RouteLane, ThreadPoolExecutor> threads = new EnumMap<>(RouteLane.class);
    LaneDispatch(Map<RouteLane, HttpHandler> handlers) {
        this.handlers = new EnumMap<>(handlers);
        for (RouteLane lane : RouteLane.values()) {
            threads.put(lane, RequestThreads.lane(lane));
        }
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        List<String> hosts = exchange.getRequestHeaders().get("Host");
        if (hosts == null || hosts.size() != 1 || !LocalHost.allowed(hosts.get(0))) {
            LocalAnswers.refuse(exchange, 421, "misdirected_request", "this server answers only Host " + LocalHost.allowedText()
                    + " (the local runner is for this machine; a Host of another name is a web page reaching it through DNS rebinding)", -1);
            return;
        }
        RouteLane lane = RouteLane.of(exchange.getRequestMethod(), RequestTarget.rawPath(exchange.getRequestURI()));
        HttpHandler handler = handlers.get(lane);
        try {
            threads.get(lane).execute(() -> {
                try {
                    handler.handle(exchange);
                } catch (IOException | RuntimeException e) {
                    exchange.close(); // the client went away mid-answer
                }
            });
        } catch (RejectedExecutionException full) {
            LocalAnswers.refuse(exchange, 503, "unavailable", "the local runner's " + lane.role() + " queue is full ("
                    + RequestThreads.LANE_QUEUE + " requests waiting); retry shortly", 1);
        }
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
