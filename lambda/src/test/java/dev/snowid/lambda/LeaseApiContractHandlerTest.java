package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.Lease;
import dev.snowid.testing.protocol.LeaseApiContract;
import dev.snowid.testing.protocol.LeaseApiContract.Exchange;
import dev.snowid.protocol.LeaseMessage;
import dev.snowid.protocol.LeaseRoute;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The function's side of the lease API's contract, on the real handler and a real engine: for
 * every exchange, the request written there (filled with a real lease) gets exactly the answer
 * written there. (The client's side: {@code LeaseApiContractClientTest} in the client module.)
 */
@ExtendWith(DynamoDbEngine.class)
class LeaseApiContractHandlerTest {

    /** A pool of one slot (datacenter 2, machine 5), so "every slot held" is one lease away. */
    private static final String[] ONE_SLOT_POOL = {FunctionSettings.DATACENTERS, "2", FunctionSettings.MACHINES, "5"};

    static Stream<Exchange> exchanges() {
        return LeaseApiContract.exchanges().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exchanges")
    void theHandlerAnswersTheRequestAsWritten(Exchange exchange, TestTable table) {
        try (Function function = exchange.iamCaller == null ? Functions.function(table, ONE_SLOT_POOL) : Functions.function(table,
                ONE_SLOT_POOL[0], ONE_SLOT_POOL[1], ONE_SLOT_POOL[2], ONE_SLOT_POOL[3], FunctionSettings.LEASE_AUTH, "aws_iam",
                FunctionSettings.LEASE_SECRET_SHA256, null, FunctionSettings.LEASE_PRINCIPALS, LeaseApiContract.LISTED_ROLE)) {
            Lease lease = prepare(exchange, function);
            String body = LeaseApiContract.withRequestId(
                    LeaseApiContract.fill(exchange.requestBody, lease, LeaseApiContract.HOLDER, lastIssued(lease), "", 0),
                    LeaseApiContract.REQUEST_ID);
            TestEvents.Request request = TestEvents.request(exchange.route.method(), exchange.route.path(lease.slot())).body(body);
            if (exchange.iamCaller != null) {
                request.iamCaller(exchange.iamCaller); // as API Gateway reports a caller whose signature it verified
            } else if (exchange.authorized) {
                request.bearer(Functions.SECRET);
            }

            Invocation answer = function.call(request, PayloadFormat.V2);

            assertEquals(exchange.status, answer.status(), answer::toString);
            assertTrue(LeaseApiContract.matches(exchange.answerBody, answer.body()),
                    () -> "answer body\n  " + answer.body() + "\ndoes not have the contract's shape\n  " + exchange.answerBody);
            for (Map.Entry<String, String> header : exchange.answerHeaders.entrySet()) {
                String value = answer.headers().get(header.getKey());
                assertTrue(value != null && LeaseApiContract.matches(header.getValue(), value),
                        () -> "header " + header.getKey() + ": " + value + ", expected " + header.getValue());
            }
            if (exchange.setup.equals(LeaseApiContract.GRANTED_TO_THE_REQUEST_ID)) {
                Lease again = LeaseMessage.readLease(answer.body());
                assertEquals(lease.slot() + " " + lease.owner() + " " + lease.fence() + " " + lease.window(),
                        again.slot() + " " + again.owner() + " " + again.fence() + " " + again.window(), "exactly the lease granted first");
            }
            if (exchange.status == 409 && exchange.route == LeaseRoute.ACQUIRE) {
                assertFalse(answer.body().contains(lease.owner()), "never the first caller's owner token: " + answer.body());
                assertTrue(answer.text("message").contains("Draw a fresh random requestId"), answer.body());
            }
        }
    }

    /** Puts the table in the state the exchange needs; returns the lease its request is about. */
    private static Lease prepare(Exchange exchange, Function function) {
        switch (exchange.setup) {
            case "a free slot":
                return LeaseApiContract.LEASE; // the request names no lease
            case "every slot held":
                acquire(function);
                return LeaseApiContract.LEASE;
            case "the lease held":
                return acquire(function);
            case LeaseApiContract.GRANTED_TO_THE_REQUEST_ID: // by the same caller: its answer is "lost", the exchange asks again
                return acquireWithTheRequestId(function, LeaseApiContract.HOLDER, exchange.iamCaller);
            case LeaseApiContract.GRANTED_TO_ANOTHER_HOLDER:
                return acquireWithTheRequestId(function, LeaseApiContract.OTHER_HOLDER, null);
            case LeaseApiContract.GRANTED_TO_ANOTHER_CALLER:
                return acquireWithTheRequestId(function, LeaseApiContract.HOLDER, LeaseApiContract.OTHER_LISTED_CALLER);
            case "the slot held by a newer lease": {
                Lease held = acquire(function);
                return new Lease(held.slot(), held.owner(), held.fence() - 1, held.window());
            }
            case "a slot outside the pool": {
                Lease held = acquire(function);
                return new Lease(Slot.of(9, 9), held.owner(), held.fence(), held.window());
            }
            case "the lease released": {
                Lease held = acquire(function);
                Invocation released = function.call(TestEvents.request("DELETE", "/leases/" + held.slot().index())
                        .bearer(Functions.SECRET).body(LeaseMessage.releaseRequest(held, 0)), PayloadFormat.V2);
                assertEquals(204, released.status(), released::toString);
                return held;
            }
            default:
                throw new AssertionError("the contract names a state this test cannot set up: " + exchange.setup);
        }
    }

    /** An acquisition with the contract's request id for {@code holder}: signed as {@code iamCaller} (null: the bearer secret). */
    private static Lease acquireWithTheRequestId(Function function, String holder, String iamCaller) {
        TestEvents.Request request = TestEvents.request("POST", "/leases")
                .body(LeaseMessage.acquireRequest(holder, LeaseApiContract.REQUEST_ID));
        Invocation granted = function.call(iamCaller == null ? request.bearer(Functions.SECRET) : request.iamCaller(iamCaller),
                PayloadFormat.V2);
        assertEquals(201, granted.status(), granted::toString);
        return LeaseMessage.readLease(granted.body());
    }

    private static Lease acquire(Function function) {
        Invocation acquired = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body(LeaseMessage.acquireRequest("setup")), PayloadFormat.V2);
        assertEquals(201, acquired.status(), acquired::toString);
        return LeaseMessage.readLease(acquired.body());
    }

    /** A last-issued ms inside the lease's window: what a holder that issued once would send. */
    private static long lastIssued(Lease lease) {
        LeaseWindow window = lease.window();
        return window.equals(LeaseApiContract.LEASE.window()) ? LeaseApiContract.LAST_ISSUED
                : Math.max(window.floor(), System.currentTimeMillis() - 1);
    }
}
