package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.region.Block;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.Claim;
import dev.snowid.region.Claimant;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnEveryEngine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Regions racing for the same free blocks at the same moment, on real threads, each with its own
 * SDK client (as functions in different regions have), over many rounds: every block goes to
 * exactly one of them, every loser is told who won, and the registry's history records each
 * round's winner in order.
 */
@OnEveryEngine(racesWriters = true)
class ClaimRaceTest {

    private static final int ROUNDS = 25;
    private static final List<Claimant> CLAIMANTS = List.of(Claimant.of("eu-west-1", "snowid"), Claimant.of("us-east-1", "snowid"),
            Claimant.of("ap-south-1", "snowid"), Claimant.of("eu-west-1", "snowid-b"), Claimant.of("sa-east-1", "snowid"),
            Claimant.of("us-west-2", "snowid"), Claimant.of("eu-central-1", "snowid"), Claimant.of("ca-central-1", "snowid"));

    private final DynamoDbEngine.Running engine;

    ClaimRaceTest(DynamoDbEngine.Running engine) {
        this.engine = engine;
    }

    private record Outcome(Claimant claimant, Block block, boolean won, String refusal) {
    }

    @Test
    void everyFreeBlockGoesToExactlyOneOfTheRegionsRacingForItInEveryRound() throws Exception {
        String table = TestRegistries.newTable(engine);
        List<DynamoDbClaimRegistry> registries = new ArrayList<>();
        CLAIMANTS.forEach(claimant -> registries.add(TestRegistries.registry(engine, table)));
        ExecutorService threads = Executors.newFixedThreadPool(CLAIMANTS.size());
        List<List<Claimant>> winners = new ArrayList<>();
        for (int i = 0; i < Block.COUNT; i++) {
            winners.add(new ArrayList<>());
        }
        try {
            for (int round = 0; round < ROUNDS; round++) {
                CyclicBarrier start = new CyclicBarrier(CLAIMANTS.size());
                List<Future<List<Outcome>>> raced = new ArrayList<>();
                for (int c = 0; c < CLAIMANTS.size(); c++) {
                    Claimant claimant = CLAIMANTS.get(c);
                    DynamoDbClaimRegistry registry = registries.get(c);
                    long seed = round * 31L + c;
                    raced.add(threads.submit(() -> race(claimant, registry, start, seed)));
                }
                List<List<Outcome>> byBlock = new ArrayList<>();
                for (int i = 0; i < Block.COUNT; i++) {
                    byBlock.add(new ArrayList<>());
                }
                for (Future<List<Outcome>> outcomes : raced) {
                    for (Outcome outcome : outcomes.get(60, TimeUnit.SECONDS)) {
                        byBlock.get(outcome.block().index()).add(outcome);
                    }
                }
                Map<Block, BlockClaims> registered = registries.get(0).claims();
                for (int i = 0; i < Block.COUNT; i++) {
                    List<Outcome> won = byBlock.get(i).stream().filter(Outcome::won).toList();
                    assertEquals(1, won.size(), "round " + round + ", block " + i + ": winners " + won);
                    Claimant winner = won.get(0).claimant();
                    assertEquals(winner, registered.get(Block.of(i)).current().claimant(), "round " + round);
                    for (Outcome lost : byBlock.get(i)) {
                        assertTrue(lost.won() || lost.refusal().contains(winner.toString()), "a loser is told who won: " + lost);
                    }
                    winners.get(i).add(winner);
                }
                for (int i = 0; i < Block.COUNT; i++) {
                    Claimant winner = winners.get(i).get(round);
                    registries.get(CLAIMANTS.indexOf(winner)).release(Block.of(i), winner, (round + 1) * 1_000L);
                }
            }
        } finally {
            threads.shutdownNow();
            registries.forEach(DynamoDbClaimRegistry::close);
        }
        Map<Block, BlockClaims> history = TestRegistries.registry(engine, table).claims();
        for (int i = 0; i < Block.COUNT; i++) {
            List<Claim> claims = history.get(Block.of(i)).claims();
            assertEquals(ROUNDS, claims.size());
            for (int round = 0; round < ROUNDS; round++) {
                assertEquals(winners.get(i).get(round), claims.get(round).claimant(), "block " + i + ", round " + round);
                assertEquals(round * 1_000L, claims.get(round).from());
            }
        }
    }

    /** One claimant's attempt at every block, in its own random order, starting with the others. */
    private static List<Outcome> race(Claimant claimant, DynamoDbClaimRegistry registry, CyclicBarrier start, long seed)
            throws Exception {
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < Block.COUNT; i++) {
            blocks.add(Block.of(i));
        }
        Collections.shuffle(blocks, new Random(seed));
        List<Outcome> outcomes = new ArrayList<>();
        start.await(30, TimeUnit.SECONDS);
        for (Block block : blocks) {
            try {
                registry.claim(block, claimant, dev.snowid.internal.HexToken.draw(new java.security.SecureRandom()), claimant + " table",
                        System.currentTimeMillis());
                outcomes.add(new Outcome(claimant, block, true, null));
            } catch (BlockClaimedException lost) {
                outcomes.add(new Outcome(claimant, block, false, lost.getMessage()));
            }
        }
        return outcomes;
    }
}
