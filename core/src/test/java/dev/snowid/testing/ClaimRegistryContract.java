package dev.snowid.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.internal.HexToken;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.Claim;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.region.Claimant;
import java.security.SecureRandom;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The rules every {@link ClaimRegistry} keeps, whatever it runs on: the in-memory fake runs it
 * ({@code InMemoryClaimRegistryTest}), and the registry on DynamoDB runs it on every engine.
 */
public abstract class ClaimRegistryContract {

    protected static final long T = 1_700_000_000_000L;
    private static final Block BLOCK = Block.of(2);
    private static final Claimant EU = Claimant.of("eu-west-1", "snowid");
    private static final Claimant US = Claimant.of("us-east-1", "snowid");
    private static final Claimant EU_SECOND = Claimant.of("eu-west-1", "snowid-b");

    private ClaimRegistry registry;

    /** A registry on an empty table; each test gets a new one. */
    protected abstract ClaimRegistry newRegistry();

    @BeforeEach
    void emptyRegistry() {
        registry = newRegistry();
    }

    /** A new claim from {@code claimant}'s own table, under a fresh id. */
    private BlockClaims claim(Claimant claimant, long now) {
        return registry.claim(BLOCK, claimant, HexToken.draw(new SecureRandom()), tableOf(claimant), now);
    }

    private static String tableOf(Claimant claimant) {
        return "arn:aws:dynamodb:" + claimant.region() + ":123456789012:table/" + claimant.stack() + "@1700000000000";
    }

    @Test
    void aFreshRegistryHasEveryBlockUnclaimedAtFloorZero() {
        Map<Block, BlockClaims> claims = registry.claims();
        assertEquals(Block.COUNT, claims.size());
        for (BlockClaims block : claims.values()) {
            assertNull(block.current(), block.toString());
            assertTrue(block.claims().isEmpty(), block.toString());
            assertEquals(0, block.floor(), block.toString());
        }
    }

    @Test
    void theFirstClaimOfABlockStartsAtZeroAndNamesItsClaimant() {
        BlockClaims claimed = claim(EU, T);

        assertEquals(EU, claimed.current().claimant());
        assertEquals(0, claimed.floor());
        assertEquals(0, claimed.current().from());
        assertEquals(T, claimed.current().claimedAt());
        assertTrue(registry.claims().get(BLOCK).claimedBy(EU));
        assertNull(registry.claims().get(Block.of(3)).current(), "other blocks stay free");
    }

    @Test
    void theClaimIsBoundToItsIdAndTableAndClaimingAgainWithTheSameIdChangesNothing() {
        String id = HexToken.draw(new SecureRandom());
        BlockClaims first = registry.claim(BLOCK, EU, id, tableOf(EU), T);
        BlockClaims again = registry.claim(BLOCK, EU, id, tableOf(EU), T + 5_000);

        assertEquals(id, first.current().claimId());
        assertEquals(tableOf(EU), first.current().table());
        assertEquals(1, again.claims().size());
        assertEquals(T, again.current().claimedAt(), "the claim's time stays the first claim's");
        assertEquals(id, registry.claims().get(BLOCK).current().claimId());
    }

    @Test
    void theSameStackNameFromAnotherTableOrUnderAnotherIdIsRefused() {
        BlockClaims first = claim(EU, T);

        String recreated = tableOf(EU).replace("@1700000000000", "@1700000099999");
        BlockClaimedException copy = assertThrows(BlockClaimedException.class,
                () -> registry.claim(BLOCK, EU, HexToken.draw(new SecureRandom()), recreated, T + 1));
        assertThrows(BlockClaimedException.class, () -> claim(EU, T + 2), "a second claim id from the same table");

        assertTrue(copy.getMessage().contains(EU.toString()), copy.getMessage());
        assertEquals(first.current().claimId(), registry.claims().get(BLOCK).current().claimId(), "the first claim stays");
        assertEquals(tableOf(EU), registry.claims().get(BLOCK).current().table());
    }

    @Test
    void anotherRegionOrAnotherStackOfTheSameRegionIsRefusedAndTheRefusalNamesTheHolder() {
        claim(EU, T);

        BlockClaimedException us = assertThrows(BlockClaimedException.class, () -> claim(US, T + 1));
        assertTrue(us.getMessage().contains(EU.toString()), us.getMessage());
        assertEquals(EU, us.claims().current().claimant());
        assertThrows(BlockClaimedException.class, () -> claim(EU_SECOND, T + 1));
        assertTrue(registry.claims().get(BLOCK).claimedBy(EU));
    }

    @Test
    void aReleaseEndsTheClaimAtItsHighestExpiryAndTheNextClaimStartsThere() {
        claim(EU, T);
        BlockClaims released = registry.release(BLOCK, EU, T + 90_000);

        assertNull(released.current());
        assertEquals(T + 90_000, released.floor());
        BlockClaims next = claim(US, T + 100_000);
        assertEquals(T + 90_000, next.floor());
        assertEquals(2, next.claims().size());
        Claim old = next.claims().get(0);
        assertEquals(EU, old.claimant());
        assertEquals(tableOf(EU), old.table(), "the history keeps each claim's table");
        assertEquals(0, old.from());
        assertEquals(T + 90_000, old.until());
        assertEquals(US, next.current().claimant());
        assertEquals(T + 90_000, next.current().from());
    }

    @Test
    void theHistoryNamesTheClaimOfEveryIdTime() {
        claim(EU, T);
        registry.release(BLOCK, EU, T + 90_000);
        claim(US, T + 100_000);
        registry.release(BLOCK, US, T + 200_000);
        claim(EU, T + 300_000);

        BlockClaims claims = registry.claims().get(BLOCK);
        assertEquals(EU, claims.claimAt(T).claimant());
        assertEquals(EU, claims.claimAt(T + 89_999).claimant());
        assertEquals(US, claims.claimAt(T + 90_000).claimant());
        assertEquals(US, claims.claimAt(T + 199_999).claimant());
        assertEquals(EU, claims.claimAt(T + 200_000).claimant());
        assertEquals(EU, claims.claimAt(Long.MAX_VALUE - 1).claimant());
        assertEquals(3, claims.claims().size());
    }

    @Test
    void onlyTheHolderReleasesAndAFreeBlockCannotBeReleased() {
        assertThrows(BlockClaimedException.class, () -> registry.release(BLOCK, EU, T));
        claim(EU, T);
        assertThrows(BlockClaimedException.class, () -> registry.release(BLOCK, US, T));
        assertTrue(registry.claims().get(BLOCK).claimedBy(EU));
        registry.release(BLOCK, EU, T + 1);
        assertThrows(BlockClaimedException.class, () -> registry.release(BLOCK, EU, T + 2), "released twice");
        assertEquals(T + 1, registry.claims().get(BLOCK).floor());
    }

    @Test
    void aFreedBlockAfterAReleaseIsNotClaimedByAnyone() {
        claim(EU, T);
        registry.release(BLOCK, EU, T + 10);

        assertFalse(registry.claims().get(BLOCK).claimedBy(EU));
        assertNull(registry.claims().get(BLOCK).claimAt(T + 10), "no claim covers times after the last release");
    }
}
