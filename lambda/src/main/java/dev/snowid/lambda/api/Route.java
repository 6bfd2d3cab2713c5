package dev.snowid.lambda.api;

import dev.snowid.protocol.LeaseRoute;

/**
 * The routes of the API, as templates: what {@link SnowidApi} matches paths against, and the
 * value of the {@code route} log field and of the {@code Route} metric dimension (a template, not the path, so that IDs and slot numbers never
 * become dimension values).
 */
public enum Route {

    IDS("/ids"),
    DECODE("/ids/{id}"),
    /** The wire contract's path, shared with the client. */
    LEASES(LeaseRoute.LEASES),
    LEASE(LeaseRoute.LEASES + "/{slot}"),
    /** Load balancers and uptime checks call it every few seconds: logged, never metered. */
    HEALTH("/health"),
    /** No route matched (404), or the event was unreadable. */
    UNMATCHED("unmatched");

    private final String template;

    Route(String template) {
        this.template = template;
    }

    public String template() {
        return template;
    }

    /** Whether requests on this route produce metrics. */
    public boolean metered() {
        return this != HEALTH;
    }
}
