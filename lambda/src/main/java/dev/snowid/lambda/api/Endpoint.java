package dev.snowid.lambda.api;

import dev.snowid.lambda.http.GatewayEvent;
import dev.snowid.protocol.ApiRoute;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The route table's rows as the function answers them: each is a row of the API's one route table,
 * {@link ApiRoute} (method and path, which the clients call by), on the {@link Route} of its path
 * (whose function, query and auth are the other columns); and the one home of the route keys API
 * Gateway matches ({@code GET /ids/{id}}). Routing reads it, and so do the answers for what it
 * lacks: a route's methods are the {@code Allow} header of its 405, and the 404s list the table.
 * {@link SnowidApi} answers each row in a switch that the compiler holds to every row.
 *
 * <p>The function routes by the route key API Gateway matched, never by the path alone: a request
 * that reached the catch-all {@value #DEFAULT_ROUTE_KEY} route passed none of the routes' own
 * authorization, so it is never answered as one of them ({@code /%69ds} is not {@code /ids} there).
 */
public enum Endpoint {

    GET_IDS(ApiRoute.GET_IDS),
    POST_IDS(ApiRoute.POST_IDS),
    DECODE(ApiRoute.DECODE),
    ACQUIRE(ApiRoute.ACQUIRE),
    SLOT_MAP(ApiRoute.SLOT_MAP),
    RENEW(ApiRoute.RENEW),
    RELEASE(ApiRoute.RELEASE),
    HEALTH(ApiRoute.HEALTH);

    /** API Gateway's catch-all route: every request no route of the table matched. */
    public static final String DEFAULT_ROUTE_KEY = GatewayEvent.DEFAULT_ROUTE_KEY;

    private final String method;
    private final Route route;

    Endpoint(ApiRoute row) {
        this.method = row.method();
        this.route = Route.of(row);
    }

    public String method() {
        return method;
    }

    public Route route() {
        return route;
    }

    /** The route key API Gateway matches this row by, and names in its event: {@code GET /ids/{id}}. */
    public String routeKey() {
        return method + " " + route.template();
    }

    /** The row of a route key API Gateway matched; none for {@value #DEFAULT_ROUTE_KEY} or any key not in the table. */
    public static Optional<Endpoint> ofRouteKey(String routeKey) {
        for (Endpoint endpoint : values()) {
            if (endpoint.routeKey().equals(routeKey)) {
                return Optional.of(endpoint);
            }
        }
        return Optional.empty();
    }

    /**
     * The route key API Gateway would match for {@code method} and {@code rawPath}, as the local
     * runner, SnapStart priming and the tests play it: the method exactly as sent (case and all),
     * the path as sent, before any percent-decoding, literal segments equal and a {@code {name}}
     * segment any one non-empty segment; else {@value #DEFAULT_ROUTE_KEY}. A real gateway may
     * match fewer requests (then the function sees {@value #DEFAULT_ROUTE_KEY}), never more.
     */
    public static String routeKeyOf(String method, String rawPath) {
        for (Endpoint endpoint : values()) {
            if (endpoint.method.equals(method) && endpoint.route.matches(rawPath)) {
                return endpoint.routeKey();
            }
        }
        return DEFAULT_ROUTE_KEY;
    }

    /** The row for {@code method} on {@code route}; none when the route does not take the method (a 405). */
    static Optional<Endpoint> of(Route route, String method) {
        for (Endpoint endpoint : values()) {
            if (endpoint.route == route && endpoint.method.equals(method)) {
                return Optional.of(endpoint);
            }
        }
        return Optional.empty();
    }

    /** The methods {@code route} takes, in the table's order: its {@code Allow} header. */
    static List<String> methods(Route route) {
        List<String> methods = new ArrayList<>();
        for (Endpoint endpoint : values()) {
            if (endpoint.route == route) {
                methods.add(endpoint.method);
            }
        }
        return methods;
    }

    /**
     * The routes {@code which} admits, as the 404 answers list them: each route's methods together,
     * e.g. {@code GET|POST /ids?count=N, GET /ids/{id}}; with each route's query if {@code withQuery}.
     */
    static String describe(Predicate<Route> which, boolean withQuery) {
        List<String> listed = new ArrayList<>();
        for (Route route : Route.values()) {
            List<String> methods = methods(route);
            if (which.test(route) && !methods.isEmpty()) {
                listed.add(String.join("|", methods) + " " + route.template() + (withQuery ? route.query() : ""));
            }
        }
        return String.join(", ", listed);
    }
}
