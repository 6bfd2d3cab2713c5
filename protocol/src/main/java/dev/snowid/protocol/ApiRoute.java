package dev.snowid.protocol;

/**
 * The API's route table: every method and path of the API, in one place for both sides. The
 * function answers each row (its {@code Endpoint}s are these rows, with what answers them); the
 * client, the agent and its commands call by them. What a lease route's answers mean to a holder
 * is {@link LeaseRoute}'s.
 */
public enum ApiRoute {

    /** {@code GET /ids?count=N}: a batch of IDs. */
    GET_IDS("GET", "/ids"),
    /** {@code POST /ids?count=N}: the same, for callers that may not cache a GET. */
    POST_IDS("POST", "/ids"),
    /** {@code GET /ids/{id}}: an ID's time, datacenter, machine and sequence. */
    DECODE("GET", "/ids/{id}"),
    ACQUIRE("POST", LeaseRoute.LEASES),
    SLOT_MAP("GET", LeaseRoute.LEASES),
    RENEW("PUT", LeaseRoute.LEASES + "/{slot}"),
    RELEASE("DELETE", LeaseRoute.LEASES + "/{slot}"),
    /** {@code GET /health}: for load balancers and uptime checks. */
    HEALTH("GET", "/health");

    private final String method;
    private final String template;

    ApiRoute(String method, String template) {
        this.method = method;
        this.template = template;
    }

    public String method() {
        return method;
    }

    /** The path with its one {@code {parameter}} segment, if any: {@code /ids/{id}}. */
    public String template() {
        return template;
    }

    /** The path to call: the template with its {@code {parameter}} segment filled in by {@code parameter} (ignored without one). */
    public String path(Object parameter) {
        int start = template.indexOf('{');
        return start < 0 ? template : template.substring(0, start) + parameter;
    }

    /** The route key API Gateway matches this row by: {@code GET /ids/{id}}. */
    @Override
    public String toString() {
        return method + " " + template;
    }
}
