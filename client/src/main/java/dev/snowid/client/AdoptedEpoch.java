package dev.snowid.client;

import dev.snowid.SnowflakeCodec;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseSource;
import dev.snowid.protocol.HttpUrl;
import java.util.OptionalLong;

/**
 * The codec of a client built without one: the epoch the lease API named with the first lease, so
 * that every holder of the pool issues with the same, and from then on the only epoch accepted.
 */
final class AdoptedEpoch {

    private AdoptedEpoch() {
    }

    /**
     * @param api the lease API, null for another lease source (which names no epoch: Twitter's)
     * @throws IllegalArgumentException the API names an epoch no ID can be issued with; {@code first} is released
     */
    static SnowflakeCodec codec(HttpLeaseSource api, LeaseSource source, Lease first) {
        OptionalLong named = api == null ? OptionalLong.empty() : api.epochMillis();
        if (!named.isPresent()) {
            return SnowflakeCodec.TWITTER;
        }
        try {
            SnowflakeCodec adopted = SnowflakeCodec.withEpoch(named.getAsLong());
            api.expectEpoch(adopted.epochMillis());
            return adopted;
        } catch (IllegalArgumentException unusable) {
            try {
                source.release(first, 0);
            } catch (RuntimeException releaseFailed) {
                unusable.addSuppressed(releaseFailed);
            }
            throw new IllegalArgumentException("the lease API at " + HttpUrl.shown(api.baseUrl()) + " names epoch " + named.getAsLong()
                    + ", which no ID can be issued with: " + unusable.getMessage(), unusable);
        }
    }
}
