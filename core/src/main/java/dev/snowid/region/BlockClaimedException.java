package dev.snowid.region;

/** A claim or release refused by the registry: the block is someone else's, or free. The message names both sides. */
public final class BlockClaimedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient BlockClaims claims;

    public BlockClaimedException(String message, BlockClaims claims) {
        super(message);
        this.claims = claims;
    }

    /** The block's claims as the registry holds them. */
    public BlockClaims claims() {
        return claims;
    }
}
