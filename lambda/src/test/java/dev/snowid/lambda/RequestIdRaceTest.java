package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.WallClock;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.TestStores;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.AcquisitionRequest;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.protocol.LeaseMessage;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Concurrent {@code POST /leases} with one request id, each from its own function environment (its
 * own SDK client), on real threads, over many rounds: whoever sends them, at most one lease is
 * answered, and one slot is held when the round is over. Different holders (bearer), one holder
 * racing itself (a retry racing its original), and different IAM callers under one holder name.
 * On dynalite only: it races writers ({@code docs/architecture.md}, "Test engines").
 */
@OnEveryEngine(racesWriters = true)
class RequestIdRaceTest {

    private static final int ENVIRONMENTS = 8;
    private static final int ROUNDS = 60;
    private static final String ROLE = "arn:aws:iam::123456789012:role/race";

    private final List<Function> functions = new ArrayList<>();
    private final ExecutorService threads = Executors.newFixedThreadPool(ENVIRONMENTS);

    @AfterEach
    void close() {
        threads.shutdownNow();
        functions.forEach(Function::close);
    }

    private enum Senders { HOLDERS, ONE_HOLDER, IAM_CALLERS }

    @Test
    void concurrentAcquisitionsWithOneIdAnswerAtMostOneLease(TestTable table) throws Exception {
        List<Function> bearer = environments(table);
        List<Function> iam = environments(table, FunctionSettings.LEASE_AUTH, "aws_iam", FunctionSettings.LEASE_SECRET_SHA256, null,
                FunctionSettings.LEASE_PRINCIPALS, ROLE);
        Map<String, Integer> tally = new TreeMap<>();
        try (DynamoDbLeaseStore table1 = TestStores.store(table, WallClock.SYSTEM)) {
            for (Senders senders : Senders.values()) {
                for (int round = 0; round < ROUNDS; round++) {
                    String id = AcquisitionRequest.drawId();
                    CyclicBarrier start = new CyclicBarrier(ENVIRONMENTS);
                    List<Future<Invocation>> answers = new ArrayList<>();
                    for (int e = 0; e < ENVIRONMENTS; e++) {
                        TestEvents.Request request = request(senders, e, id);
                        Function function = (senders == Senders.IAM_CALLERS ? iam : bearer).get(e);
                        answers.add(threads.submit(() -> {
                            start.await(10, TimeUnit.SECONDS);
                            return function.call(request, PayloadFormat.V2);
                        }));
                    }
                    Set<String> owners = new TreeSet<>();
                    Lease answered = null;
                    for (Future<Invocation> future : answers) {
                        Invocation answer = future.get(30, TimeUnit.SECONDS);
                        String outcome = answer.status() + (answer.status() == 201 ? "" : " " + answer.text("error"));
                        tally.merge(senders + " " + outcome, 1, Integer::sum);
                        if (answer.status() == 201) {
                            answered = LeaseMessage.readLease(answer.body());
                            owners.add(answered.owner());
                        } else {
                            String expected = senders == Senders.ONE_HOLDER ? "503 acquisition_superseded" : "409 request_id_conflict";
                            assertEquals(expected, outcome, answer::toString);
                            if (answer.status() == 503) {
                                assertEquals("1", answer.headers().get("Retry-After"), "send it again at once: " + answer);
                            }
                        }
                    }
                    String what = senders + ", round " + round;
                    assertEquals(1, owners.size(), what + ": one owner token answered, " + owners);
                    if (senders != Senders.ONE_HOLDER) {
                        assertEquals(1, tally.getOrDefault(senders + " 201", 0) - round, what + ": one 201 in the round");
                    }
                    List<HeldSlot> held = table1.heldSlots();
                    assertEquals(1, held.size(), what + ": one slot held when the round is over, " + held);
                    assertEquals(answered.slot(), held.get(0).slot());
                    table1.release(answered.slot(), answered.owner(), answered.fence(), 0);
                }
            }
        }
        System.out.printf("[snowid] %d rounds of %d concurrent POST /leases with one request id: %s%n", ROUNDS * Senders.values().length,
                ENVIRONMENTS, tally);
        assertTrue(tally.keySet().stream().anyMatch(k -> k.startsWith("ONE_HOLDER 201")), tally.toString());
    }

    private static TestEvents.Request request(Senders senders, int environment, String id) {
        String holder = senders == Senders.HOLDERS ? "holder-" + environment : "one-holder";
        TestEvents.Request request = TestEvents.request("POST", "/leases").body(LeaseMessage.acquireRequest(holder, id));
        return senders == Senders.IAM_CALLERS ? request.iamCaller("arn:aws:sts::123456789012:assumed-role/race/i-" + environment)
                : request.bearer(Functions.SECRET);
    }

    private List<Function> environments(TestTable table, String... settings) {
        List<Function> environments = new ArrayList<>();
        for (int e = 0; e < ENVIRONMENTS; e++) {
            environments.add(Functions.function(table, settings));
        }
        functions.addAll(environments);
        return environments;
    }
}
