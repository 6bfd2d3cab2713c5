package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.api.Route;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.protocol.ApiRoute;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Routing and the answers for what it lacks read one route table: every row reaches its handler,
 * a route's 405 allows exactly the methods that reach a handler there, and the 404 lists exactly
 * the rows. Probed through the handler with every common method on every route.
 */
class RouteTableTest {

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    @Test
    void everyRowReachesItsHandlerAndEveryOtherMethodIs405AllowingThoseThatDo() {
        try (Function function = Functions.inMemory(store)) {
            Set<String> answered = new TreeSet<>();
            for (Route route : Route.values()) {
                if (route == Route.UNMATCHED) {
                    continue;
                }
                Set<String> here = new TreeSet<>();
                List<Invocation> refused = new ArrayList<>();
                for (String method : METHODS) {
                    Invocation answer = call(function, method, route);
                    assertNotEquals(404, answer.status(), method + " " + route.template() + ": " + answer);
                    if (answer.status() == 405) {
                        refused.add(answer);
                    } else {
                        here.add(method);
                    }
                }
                assertTrue(!here.isEmpty() && !refused.isEmpty(), route + ": some methods answered, some refused");
                for (Invocation answer : refused) {
                    assertEquals("method_not_allowed", answer.text("error"), answer::toString);
                    assertEquals(here, Set.of(answer.headers().get("Allow").split(", ")), route + ": Allow is what answers: " + answer);
                }
                here.forEach(method -> answered.add(method + " " + route.template()));
            }
            Set<String> rows = new TreeSet<>();
            for (Endpoint endpoint : Endpoint.values()) {
                rows.add(endpoint.method() + " " + endpoint.route().template());
            }
            assertEquals(rows, answered, "the methods that reach a handler are the table's rows");
        }
    }

    @Test
    void anUnknownPathIs404ListingEveryRow() {
        try (Function function = Functions.inMemory(store)) {
            Invocation answer = function.call(TestEvents.get("/nope"), PayloadFormat.V2);
            assertEquals(404, answer.status(), answer::toString);
            String message = answer.text("message");
            String listed = message.substring(message.indexOf("the routes are ") + "the routes are ".length());
            Set<String> rows = new TreeSet<>();
            for (String route : listed.split(", ")) {
                String[] methodsAndPath = route.split(" ");
                for (String method : methodsAndPath[0].split("\\|")) {
                    rows.add(method + " " + methodsAndPath[1].replaceFirst("\\?.*", ""));
                }
            }
            Set<String> table = new TreeSet<>();
            for (Endpoint endpoint : Endpoint.values()) {
                table.add(endpoint.method() + " " + endpoint.route().template());
            }
            assertEquals(table, rows, message);
        }
    }

    @Test
    void theFunctionAnswersEveryRowOfTheRouteTableTheClientsCallBy() {
        Set<String> table = new TreeSet<>();
        for (ApiRoute row : ApiRoute.values()) {
            table.add(row.toString());
        }
        Set<String> answered = new TreeSet<>();
        for (Endpoint endpoint : Endpoint.values()) {
            answered.add(endpoint.routeKey());
        }
        assertEquals(table, answered);
    }

    /** {@code method} on {@code route}'s template filled in, with the secret and a JSON body: past auth to the handler's own checks. */
    private static Invocation call(Function function, String method, Route route) {
        String path = route.template().replace("{id}", "1724551110457221119").replace("{slot}", "0");
        return function.call(TestEvents.request(method, path).bearer(Functions.SECRET).body("{}"), PayloadFormat.V2);
    }
}
