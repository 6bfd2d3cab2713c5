package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.dynamodb.TestRegistries;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.RegionClaims;
import dev.snowid.protocol.SlotMap;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.region.Claimant;
import dev.snowid.testing.InMemoryClaimMarkers;
import dev.snowid.testing.InMemoryClaimRegistry;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two regional functions, each with its own lease table, guarded by one claim registry on the
 * engine, as their settings configure it: the second with an overlapping block refuses to lease
 * (503 block_not_claimed, its log naming both claims, the metric the alarm watches), the first
 * keeps issuing, and every ID names its region.
 */
@ExtendWith(DynamoDbEngine.class)
class RegionGuardHandlerTest {

    private static String[] regional(String registry, String region, String datacenters) {
        return new String[] {FunctionSettings.REGISTRY_TABLE, registry,
            FunctionSettings.REGISTRY_ENDPOINT, DynamoDbEngine.shared().endpoint().toString(),
            FunctionSettings.REGION, region, FunctionSettings.STACK, "snowid", FunctionSettings.DATACENTERS, datacenters,
            FunctionSettings.METRICS, "emf"};
    }

    @Test
    void theSecondRegionOnAClaimedBlockRefusesWithItsCodeAndTheFirstKeepsIssuing(TestTable euTable, TestTable usTable) {
        String registry = TestRegistries.newTable(DynamoDbEngine.shared());
        try (Function eu = Functions.function(euTable, regional(registry, "eu-west-1", "8-11"));
                Function us = Functions.function(usTable, regional(registry, "us-east-1", "10-11"))) {
            Invocation issued = eu.call(TestEvents.get("/ids").query("count=2"), PayloadFormat.V2);
            assertEquals(200, issued.status(), issued::toString);

            Invocation refused = us.call(TestEvents.get("/ids"), PayloadFormat.V2);
            assertEquals(503, refused.status(), refused::toString);
            assertEquals("block_not_claimed", refused.text("error"));
            assertEquals("60", refused.headers().get("Retry-After"));
            assertFalse(refused.body().contains("eu-west-1"), "the public answer names no claim: " + refused.body());
            String warning = String.join("\n", us.log());
            assertTrue(warning.contains("eu-west-1/snowid") && warning.contains("us-east-1/snowid"), "the log names both claims: " + warning);
            assertTrue(us.metricRecords().stream().anyMatch(r -> r.field("ErrorCode").map(code -> code.text().equals("block_not_claimed"))
                    .orElse(false)),
                    "the Errors metric the BlockNotClaimedAlarm watches");
            Invocation agents = us.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
            assertEquals(503, agents.status(), agents::toString);
            assertEquals("block_not_claimed", agents.text("error"));
            assertTrue(usTable.client().scan(s -> s.tableName(usTable.name())).items().isEmpty(), "the refused stack wrote nothing");

            assertEquals(200, eu.call(TestEvents.get("/ids"), PayloadFormat.V2).status(), "the first region keeps issuing");
            assertEquals("claimed", eu.call(TestEvents.get("/health"), PayloadFormat.V2).text("guard"));
            Invocation usHealth = us.call(TestEvents.get("/health"), PayloadFormat.V2);
            assertEquals("refused", usHealth.text("guard"));
            assertEquals("us-east-1", usHealth.text("region"));

            String id = issued.ids().get(0);
            SnowflakeId decoded = SnowflakeCodec.TWITTER.parse(id);
            assertTrue(Block.of(2).contains(decoded.slot()), decoded.toString());
            Invocation there = us.call(TestEvents.get("/ids/" + id), PayloadFormat.V2);
            assertEquals("eu-west-1", there.text("region"), "any stack names the region that issued an ID: " + there.body());
            assertFalse(there.body().contains("snowid\""), "no stack name on the public route: " + there.body());

            RegionClaims claims = SlotMap.read(eu.call(TestEvents.get("/leases").bearer(Functions.SECRET), PayloadFormat.V2).body())
                    .region();
            assertEquals(Claimant.of("eu-west-1", "snowid"), claims.self());
            assertEquals("claimed", claims.guard());
            assertEquals(1, claims.claims().size());
            assertEquals(Claimant.of("eu-west-1", "snowid"), claims.claimOf(Block.of(2)).claimant());
        }
    }

    @Test
    void aLoneStackSaysItIsUnguardedAndNamesItselfForItsOwnIds(TestTable table) {
        try (Function alone = Functions.function(table, FunctionSettings.REGION, "eu-central-1")) {
            Invocation health = alone.call(TestEvents.get("/health"), PayloadFormat.V2);
            assertEquals("unguarded", health.text("guard"));
            String id = alone.call(TestEvents.get("/ids"), PayloadFormat.V2).ids().get(0);
            assertEquals("eu-central-1", alone.call(TestEvents.get("/ids/" + id), PayloadFormat.V2).text("region"));
            long foreign = SnowflakeCodec.TWITTER.encode(SnowflakeCodec.TWITTER.parse(id).unixMillis(), 30, 1, 0);
            assertTrue(alone.call(TestEvents.get("/ids/" + foreign), PayloadFormat.V2).json().field("region").orElseThrow().isNull(),
                    "a datacenter outside its pool: the lone stack does not know");
            SlotMap map = SlotMap.read(alone.call(TestEvents.get("/leases").bearer(Functions.SECRET), PayloadFormat.V2).body());
            assertEquals("unguarded", map.region().guard());
            assertEquals(null, map.region().claims());
        }
    }

    /** A registry in memory that counts its reads. */
    private static final class CountedRegistry implements ClaimRegistry {
        final InMemoryClaimRegistry registry = new InMemoryClaimRegistry();
        final java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public BlockClaims claim(Block block, Claimant claimant, String claimId, String table, long now) {
            return registry.claim(block, claimant, claimId, table, now);
        }

        @Override
        public BlockClaims release(Block block, Claimant claimant, long until) {
            return registry.release(block, claimant, until);
        }

        @Override
        public java.util.Map<Block, BlockClaims> claims() {
            reads.incrementAndGet();
            return registry.claims();
        }
    }

    private static SnowidHandler guardedInMemory(CountedRegistry registry, dev.snowid.WallClock clock) {
        FunctionSettings settings = FunctionSettings.from(java.util.Map.of(FunctionSettings.REGISTRY_TABLE, "snowid-registry"));
        return SnowidHandler.builder(settings).store(new InMemoryLeaseStore()).clock(clock)
                .claims(registry, new InMemoryClaimMarkers()).logTo(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))
                .build();
    }

    @Test
    void snapStartPrimingDecodesWithoutReadingTheRegistryAndARequestThenDoes() {
        CountedRegistry registry = new CountedRegistry();
        try (SnowidHandler handler = guardedInMemory(registry, dev.snowid.WallClock.SYSTEM)) {
            handler.snapStartHooks().beforeCheckpoint(null);
            assertEquals(0, registry.reads.get(), "init (priming included) makes no network call, so no registry read");
            Invocation.of(handler, TestEvents.get("/ids/1724551110457221119").v2());
            assertEquals(1, registry.reads.get(), "a real decode reads the registry");
        }
    }

    @Test
    void aSnapshotRestoreAsksTheRegistryAgainBeforeItsFirstGrant() {
        CountedRegistry registry = new CountedRegistry();
        try (SnowidHandler handler = guardedInMemory(registry, dev.snowid.WallClock.SYSTEM)) {
            assertEquals(200, Invocation.of(handler, TestEvents.get("/ids").v2()).status());
            int confirmed = registry.reads.get();
            handler.snapStartHooks().beforeCheckpoint(null);
            assertEquals(200, Invocation.of(handler, TestEvents.get("/ids").v2()).status());
            assertEquals(confirmed, registry.reads.get(), "a grant within the interval of this process's confirmation asks nothing");

            handler.snapStartHooks().afterRestore(null);
            registry.registry.setUnavailable(true);

            Invocation restored = Invocation.of(handler, TestEvents.get("/ids").v2());
            assertEquals(503, restored.status(), "a restored copy grants nothing on the snapshot's confirmation");
            assertEquals("block_not_claimed", restored.json().field("error").flatMap(dev.snowid.protocol.json.JsonValue::string).orElse(""));
            registry.registry.setUnavailable(false);
            assertEquals(200, Invocation.of(handler, TestEvents.get("/ids").v2()).status());
        }
    }

    @Test
    void decodingReadsTheRegistryOnceAMinuteAndAfterAFailureWaitsTenSeconds() {
        CountedRegistry registry = new CountedRegistry();
        dev.snowid.testing.ManualClock clock = new dev.snowid.testing.ManualClock(1_700_000_000_000L);
        String decode = TestEvents.get("/ids/1724551110457221119").v2();
        try (SnowidHandler handler = guardedInMemory(registry, clock)) {
            Invocation.of(handler, decode);
            clock.advance(59_000);
            Invocation.of(handler, decode);
            assertEquals(1, registry.reads.get(), "a read answers decodings for a minute");

            registry.registry.setUnavailable(true);
            clock.advance(2_000);
            Invocation unknown = Invocation.of(handler, decode);
            assertEquals(200, unknown.status(), "a decode never fails for the registry");
            assertTrue(unknown.json().field("region").orElseThrow().isNull());
            clock.advance(9_000);
            Invocation.of(handler, decode);
            assertEquals(2, registry.reads.get(), "no second try within 10 s of a failed read");
            clock.advance(1_001);
            Invocation.of(handler, decode);
            assertEquals(3, registry.reads.get());
        }
    }
}
