package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.dynamodb.TestStores;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * SnapStart priming ({@code beforeCheckpoint}): the request path runs, down to the lease table's
 * signed requests, yet nothing leaves the process, no lease is taken, nothing is written, and
 * nothing drawn at random or identifying a holder stays in the snapshot.
 */
@ExtendWith(DynamoDbEngine.class)
class SnapStartPrimingTest {

    @Test
    void primingTakesNoLeaseWritesNothingAndSendsNothing(TestTable table) {
        try (FaultyProxy network = FaultyProxy.inFrontOf(table.endpoint());
             Primed primed = Primed.on(table, network)) {
            primed.handler().snapStartHooks().beforeCheckpoint(null);

            assertEquals(0, network.requests(), "priming sent nothing to the lease table's endpoint");
            assertEquals(0, table.client().scan(s -> s.tableName(table.name())).count(), "no item written");
            assertTrue(primed.store().clockSkewMillis().isEmpty(),
                    "no store clock in the snapshot: priming's answers are made in-process and carry no Date");
            List<String> operations = primed.requests().stream().map(SentRequest::operation).toList();
            assertEquals(List.of("UpdateItem", "UpdateItem", "Scan"), operations,
                    "an acquisition's requests were built, marshalled and signed: " + primed.requests());
            String write = primed.requests().get(0).body();
            assertTrue(write.contains("\"S\":\"" + "0".repeat(32) + "\""),
                    "the write names the placeholder owner, not a drawn token: " + write);
            List<String> log = primed.log();
            assertTrue(log.stream().anyMatch(l -> l.contains("\"level\":\"INFO\"") && l.contains("beforeCheckpoint: primed")
                    && l.contains("lease table")), String.join("\n", log));
            assertTrue(log.stream().noneMatch(l -> l.contains("priming failed") || l.contains("\"route\"") || l.contains("_aws")),
                    "priming is neither a request in the log nor in the metrics: " + log);
        }
    }

    @Test
    void primingIsTheSameInEverySnapshotSoItCarriesNothingDrawn(TestTable table) {
        List<String> first;
        List<String> second;
        try (FaultyProxy network = FaultyProxy.inFrontOf(table.endpoint());
             Primed one = Primed.on(table, network);
             Primed two = Primed.on(table, network)) {
            one.handler().snapStartHooks().beforeCheckpoint(null);
            two.handler().snapStartHooks().beforeCheckpoint(null);
            first = one.requests().stream().map(SentRequest::body).toList();
            second = two.requests().stream().map(SentRequest::body).toList();
        }
        assertEquals(3, first.size());
        // An owner token, a seed or a clock reading in a request would make these differ.
        assertEquals(first, second, "two environments primed the same bytes");
    }

    @Test
    void afterTheRestoreTheFirstRequestLeasesItsOwnSlotOverTheNetwork(TestTable table) {
        try (FaultyProxy network = FaultyProxy.inFrontOf(table.endpoint());
             Primed primed = Primed.on(table, network)) {
            primed.handler().snapStartHooks().beforeCheckpoint(null);
            primed.handler().snapStartHooks().afterRestore(null);

            Invocation ids = Invocation.of(primed.handler(), TestEvents.get("/ids").query("count=3").v2());
            assertEquals(200, ids.status(), ids::toString);
            assertTrue(network.requests() >= 1, "the restored environment's acquisition went to the table");
            List<Map<String, AttributeValue>> items = table.client().scan(s -> s.tableName(table.name())).items();
            assertEquals(1, items.size(), items::toString);
            String owner = items.get(0).get(LeaseTableSchema.OWNER).s();
            assertEquals(32, owner.length());
            assertNotEquals("0".repeat(32), owner, "a token drawn after the restore");
            assertFalse(primed.store().clockSkewMillis().isEmpty(), "the store's clock measured after the restore");
        }
    }

    /** A function whose lease table is reached through {@code network}, with its log and its sent requests recorded. */
    private record Primed(SnowidHandler handler, DynamoDbLeaseStore store, ByteArrayOutputStream logBytes, List<SentRequest> requests)
            implements AutoCloseable {

        static Primed on(TestTable table, FaultyProxy network) {
            List<SentRequest> requests = new CopyOnWriteArrayList<>();
            DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name())
                    .client(TestStores.clientSettings(table).endpoint(network.endpoint()).interceptor(new Recorder(requests))).build();
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            FunctionSettings settings = FunctionSettings.from(Functions.environment(table, FunctionSettings.METRICS, "emf"));
            SnowidHandler handler = SnowidHandler.builder(settings).store(store).logTo(new PrintStream(log, true, StandardCharsets.UTF_8))
                    .build();
            return new Primed(handler, store, log, requests);
        }

        List<String> log() {
            return logBytes.toString(StandardCharsets.UTF_8).lines().toList();
        }

        @Override
        public void close() {
            handler.close();
        }
    }

    /** A request as the SDK hands it to the HTTP layer: signed, marshalled. */
    private record SentRequest(String operation, String body) {
    }

    private record Recorder(List<SentRequest> requests) implements ExecutionInterceptor {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            String target = context.httpRequest().firstMatchingHeader("X-Amz-Target").orElse("?");
            String body = context.requestBody().map(b -> {
                try (InputStream in = b.contentStreamProvider().newStream()) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).orElse("");
            requests.add(new SentRequest(target.substring(target.indexOf('.') + 1), body));
        }
    }
}
