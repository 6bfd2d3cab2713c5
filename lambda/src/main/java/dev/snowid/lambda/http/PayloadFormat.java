package dev.snowid.lambda.http;

/**
 * The two API Gateway proxy event formats the function accepts: HTTP APIs send 2.0 (or 1.0
 * when configured so), REST APIs send 1.0. Both take the same response shape.
 */
public enum PayloadFormat {
    /** REST API proxy integration, or HTTP API with payload format 1.0. */
    V1("1.0"),
    /** HTTP API, payload format 2.0. */
    V2("2.0");

    private final String version;

    PayloadFormat(String version) {
        this.version = version;
    }

    public String version() {
        return version;
    }
}
