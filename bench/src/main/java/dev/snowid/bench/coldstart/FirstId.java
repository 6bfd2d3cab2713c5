package dev.snowid.bench.coldstart;

import dev.snowid.lambda.SnowidHandler;
import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.http.HttpApiEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A cold start as Lambda runs one, minus Lambda: build the handler from the environment (its
 * init), pass it one {@code GET /ids} event (the first lease included), and print the wall-clock
 * ms at which the ID was in hand. {@code local/scripts/cold-start.sh} starts it next to
 * {@link DynamoDbFloor} and compares. Also prints the CPU time the process used until then,
 * which a machine shared with other work disturbs far less than the wall-clock time.
 */
public final class FirstId {

    private static final byte[] EVENT = HttpApiEvent.request("GET", "/ids").routeKey(Endpoint.routeKeyOf("GET", "/ids")).userAgent("cold-start").requestId("cold-start")
            .json().getBytes(StandardCharsets.UTF_8);

    private FirstId() {
    }

    public static void main(String[] args) throws IOException {
        SnowidHandler handler = new SnowidHandler();
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(EVENT), response, null);
        long doneAt = System.currentTimeMillis();
        String answer = response.toString(StandardCharsets.UTF_8);
        if (!answer.contains("\"statusCode\":200")) {
            System.err.println("no ID: " + answer);
            System.exit(1);
        }
        System.out.println("done-at " + doneAt + " cpu " + CpuTime.millis());
        System.exit(0); // the lease simply runs out, as a recycled environment's does
    }
}
