package dev.snowid.lambda.api;

import dev.snowid.lambda.settings.FunctionRole;
import dev.snowid.protocol.ApiRoute;
import java.util.ArrayList;
import java.util.List;

/**
 * The paths of the API ({@link ApiRoute}'s), and what the function says of each path: the query
 * parameters it takes (any other is refused), which of the template's two functions answers it,
 * and whether it takes the lease routes' auth ({@link LeaseRouteAuth}). The methods on each path,
 * and what answers them, are the table's rows ({@link Endpoint}).
 *
 * <p>A route's template is also the value of the {@code route} log field and of the {@code Route}
 * metric dimension: a template, not the path, so that IDs and slot numbers never become dimension
 * values.
 */
public enum Route {

    IDS(ApiRoute.GET_IDS.template(), "?count=N", FunctionRole.IDS, false),
    DECODE(ApiRoute.DECODE.template(), "", FunctionRole.IDS, false),
    LEASES(ApiRoute.ACQUIRE.template(), "", FunctionRole.LEASES, true),
    LEASE(ApiRoute.RENEW.template(), "", FunctionRole.LEASES, true),
    /** Load balancers and uptime checks call it every few seconds: logged, never metered. */
    HEALTH(ApiRoute.HEALTH.template(), "", FunctionRole.IDS, false),
    /** No route matched (404), or the event was unreadable: answered by the ids function, as everything else. */
    UNMATCHED("unmatched", "", FunctionRole.IDS, false);

    private final String template;
    /** The query as the routes are listed, e.g. {@code ?count=N}: it also declares the parameters the route takes. */
    private final String query;
    private final List<String> parameters;
    private final FunctionRole role;
    private final boolean leaseAuth;
    /** The template up to its one {@code {parameter}} segment; the whole template when it has none. */
    private final String prefix;

    Route(String template, String query, FunctionRole role, boolean leaseAuth) {
        this.template = template;
        this.query = query;
        this.parameters = parameterNames(query);
        this.role = role;
        this.leaseAuth = leaseAuth;
        int parameter = template.indexOf('{');
        this.prefix = parameter < 0 ? template : template.substring(0, parameter);
    }

    /**
     * The route of {@code path} by its template alone ({@code /ids/{id}} matches one non-empty
     * segment after {@code /ids/}); {@link #UNMATCHED} for any other path. What the local runner
     * picks a lane by, and what a 405 or 404 of a request no route matched names; never what a
     * request is answered as ({@link Endpoint#ofRouteKey}).
     */
    public static Route of(String path) {
        for (Route route : values()) {
            if (route != UNMATCHED && route.matches(path)) {
                return route;
            }
        }
        return UNMATCHED;
    }

    /** The route of {@code row}'s path. */
    static Route of(ApiRoute row) {
        for (Route route : values()) {
            if (route.template.equals(row.template())) {
                return route;
            }
        }
        throw new IllegalStateException(row + ": no route has its path");
    }

    /** Whether {@code path} fits the template: the literal segments equal, a {@code {parameter}} one non-empty segment. */
    boolean matches(String path) {
        if (prefix.equals(template)) {
            return path.equals(template);
        }
        return path.length() > prefix.length() && path.startsWith(prefix) && path.indexOf('/', prefix.length()) < 0;
    }

    /** The path's {@code {parameter}} segment (an ID, a slot number); empty for a route without one. */
    String parameter(String path) {
        return prefix.equals(template) ? "" : path.substring(prefix.length());
    }

    public String template() {
        return template;
    }

    /** How the route's query reads in the list of routes, e.g. {@code ?count=N}; mostly empty. */
    String query() {
        return query;
    }

    /** The query parameters the route takes, e.g. {@code count}; none for most. */
    List<String> parameters() {
        return parameters;
    }

    private static List<String> parameterNames(String query) {
        List<String> names = new ArrayList<>();
        if (!query.isEmpty()) {
            for (String parameter : query.substring(1).split("&")) {
                names.add(parameter.substring(0, parameter.indexOf('=')));
            }
        }
        return List.copyOf(names);
    }

    /** The function the template deploys for this route: {@link FunctionRole#IDS} or {@link FunctionRole#LEASES}. */
    public FunctionRole role() {
        return role;
    }

    /** Whether a function deployed as {@code function} ({@code SNOWID_ROLE}) answers this route. */
    public boolean answeredBy(FunctionRole function) {
        return role == FunctionRole.LEASES ? function.servesLeaseRoutes() : function.servesPublicRoutes();
    }

    /** Whether the route takes the lease routes' auth (bearer secret or IAM). */
    boolean leaseAuth() {
        return leaseAuth;
    }

    /** Whether requests on this route produce metrics. */
    public boolean metered() {
        return this != HEALTH;
    }
}
