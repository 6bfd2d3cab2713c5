package dev.snowid.client;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import java.lang.management.ManagementFactory;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Snowflake IDs in-process, from a slot leased from the snowid lease API:
 * <pre>{@code
 * SnowidClient ids = SnowidClient.builder()
 *         .leaseUrl("https://abc123.execute-api.eu-west-1.amazonaws.com")
 *         .secret(() -> System.getenv("SNOWID_LEASE_SECRET"))
 *         .build();            // leases a slot now: a wrong URL or secret fails here
 * long id = ids.nextId();
 * ids.close();                 // releases the slot, so the next holder can start at once
 * }</pre>
 *
 * <p>The lease is taken by {@link Builder#build()}, not lazily: a wrong URL, a refused secret or
 * an exhausted pool stop the application at start-up rather than at its first insert. A daemon
 * thread renews it well before it ends, so {@link #nextId()} never waits on the network while a
 * window is in force. It fails closed: no renewal confirmed, no ID past the window
 * ({@link IdUnavailableException}, nothing issued). Thread-safe.
 */
public final class SnowidClient implements AutoCloseable {

    private final LeasedGenerator generator;
    private final LeaseRenewer renewer;
    private final ClientLog log;
    private final String source;
    private final WallClock clock;
    private final LongAdder issued = new LongAdder();
    private final Refusals refusals = new Refusals();
    private volatile boolean closed;

    private SnowidClient(LeasedGenerator generator, LeaseRenewer renewer, ClientLog log, String source, WallClock clock) {
        this.generator = generator;
        this.renewer = renewer;
        this.log = log;
        this.source = source;
        this.clock = clock;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * One ID under the confirmed lease.
     *
     * @throws IdUnavailableException when none can be issued now (lease lost or run out and no new
     *         one to be had, clock behind); {@link IdUnavailableException#retryAfterMillis()} says when to try again
     */
    public long nextId() {
        refuseWhenClosed();
        try {
            long id = generator.nextId();
            issued.increment();
            return id;
        } catch (IdUnavailableException e) {
            throw refusals.count(e);
        }
    }

    /** {@code count} increasing IDs (1 to 4,096) under one confirmed lease. */
    public long[] nextIds(int count) {
        refuseWhenClosed();
        try {
            long[] ids = generator.nextIds(count);
            issued.add(ids.length);
            return ids;
        } catch (IdUnavailableException e) {
            throw refusals.count(e);
        }
    }

    /** What this client has done so far: lease, IDs issued, refusals by reason, renewals. */
    public ClientStats stats() {
        Lease lease = generator.currentLease().orElse(null);
        long left = lease == null ? -1 : Math.max(0, lease.window().expiresAt() - clock.millis());
        return new ClientStats(lease, left, issued.sum(), refusals.snapshot(), renewer.renewals(), renewer.failures(), renewer.losses());
    }

    /** The lease in force, as last confirmed; empty after a loss (until the next ID leases anew) and after {@link #close()}. */
    public Optional<Lease> currentLease() {
        return generator.currentLease();
    }

    /**
     * Stops renewing and releases the slot with the last issued ms, so that its next holder can
     * start at once; afterwards every call fails. Idempotent. A release that does not reach the
     * API is logged: the slot then simply runs out.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        renewer.stop();
        try {
            String lease = generator.currentLease().map(Lease::toString).orElse(null);
            generator.shutdown();
            if (lease != null) {
                log.info("released " + lease + " at " + source);
            }
        } catch (RuntimeException e) {
            log.warn("could not release the lease (it simply runs out): " + e.getMessage());
        }
    }

    private void refuseWhenClosed() {
        if (closed) {
            throw refusals.count(new IdUnavailableException("this SnowidClient is closed and its lease released; no ID is issued", 1000));
        }
    }

    /**
     * The lease length renewals are planned with (renewal once less than half is left): the
     * configured one, but never longer than the API granted, or every moment would be "due";
     * without a configured one, what the API granted. Within {@link LeaseTerms}' bounds.
     */
    static long planningLeaseMillis(long configuredMillis, long grantedMillis) {
        long planned = configuredMillis > 0 ? Math.min(configuredMillis, grantedMillis) : grantedMillis;
        return Math.max(LeaseTerms.MIN_LEASE_MILLIS, Math.min(LeaseTerms.MAX_LEASE_MILLIS, planned));
    }

    /** The settings of a {@link SnowidClient}; errors name the setting. */
    public static final class Builder {
        private URL leaseUrl;
        private Supplier<String> secret;
        private String holder;
        private long leaseMillis;
        private SnowflakeCodec codec = SnowflakeCodec.TWITTER;
        private ClientLog log;
        private WallClock clock = WallClock.SYSTEM;
        private LeaseSource leaseSource;

        private Builder() {
        }

        /** The snowid function's base URL, the one its routes hang under (the template's {@code LeaseUrl} output). Required. */
        public Builder leaseUrl(String url) {
            if (url == null || url.trim().isEmpty()) {
                throw new IllegalArgumentException("leaseUrl is empty: give the snowid function's base URL, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com");
            }
            try {
                return leaseUrl(new URL(url.trim()));
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("leaseUrl '" + url + "' is not a URL: " + e.getMessage());
            }
        }

        public Builder leaseUrl(URL url) {
            if (url == null) {
                throw new IllegalArgumentException("leaseUrl is null: give the snowid function's base URL");
            }
            String protocol = url.getProtocol();
            if (!protocol.equals("https") && !protocol.equals("http")) {
                throw new IllegalArgumentException("leaseUrl '" + url + "' is not http(s)");
            }
            if (url.getQuery() != null || url.getRef() != null) {
                throw new IllegalArgumentException("leaseUrl '" + url + "' has a query or fragment: give the base URL only");
            }
            this.leaseUrl = url;
            return this;
        }

        /** The lease API's bearer secret. Required (or {@link #secret(Supplier)}). */
        public Builder secret(String secret) {
            return secret(new FixedSecret(secret));
        }

        /** Asked for the bearer secret on every call to the lease API, so a rotated secret is picked up. Required. */
        public Builder secret(Supplier<String> secret) {
            if (secret == null) {
                throw new IllegalArgumentException("secret is null: give the lease API's bearer secret");
            }
            this.secret = secret;
            return this;
        }

        /** Who holds the lease, shown to operators; default {@code snowid-client <pid>@<host>}. 1 to 200 characters. */
        public Builder holder(String holder) {
            if (holder == null || holder.isEmpty() || holder.length() > 200) {
                throw new IllegalArgumentException("holder '" + holder + "' must be 1 to 200 characters");
            }
            this.holder = holder;
            return this;
        }

        /**
         * Plan renewals for a lease this long (ms, {@value LeaseTerms#MIN_LEASE_MILLIS} to
         * {@value LeaseTerms#MAX_LEASE_MILLIS}); never longer than the API grants. Default: what it grants.
         */
        public Builder leaseMillis(long millis) {
            if (millis < LeaseTerms.MIN_LEASE_MILLIS || millis > LeaseTerms.MAX_LEASE_MILLIS) {
                throw new IllegalArgumentException("leaseMillis " + millis + " is out of range: allowed " + LeaseTerms.MIN_LEASE_MILLIS
                        + " to " + LeaseTerms.MAX_LEASE_MILLIS + " (ms)");
            }
            this.leaseMillis = millis;
            return this;
        }

        /** The ID layout and epoch; default {@link SnowflakeCodec#TWITTER}. It must be the lease API's. */
        public Builder codec(SnowflakeCodec codec) {
            if (codec == null) {
                throw new IllegalArgumentException("codec is null");
            }
            this.codec = codec;
            return this;
        }

        /** Where lease events are logged; default {@link ClientLog#javaUtilLogging()}. */
        public Builder log(ClientLog log) {
            if (log == null) {
                throw new IllegalArgumentException("log is null");
            }
            this.log = log;
            return this;
        }

        /** The clock IDs are stamped with; for tests. Default: the system clock. */
        public Builder clock(WallClock clock) {
            if (clock == null) {
                throw new IllegalArgumentException("clock is null");
            }
            this.clock = clock;
            return this;
        }

        /** Another lease source instead of the HTTP API: for tests of the life cycle. */
        Builder leaseSource(LeaseSource source) {
            this.leaseSource = source;
            return this;
        }

        /**
         * Leases a slot and starts renewing it.
         *
         * @throws IllegalArgumentException a setting is missing, named
         * @throws dev.snowid.lease.NoFreeSlotException every slot of the API's pool is held
         * @throws dev.snowid.lease.LeaseStoreUnavailableException the API cannot be reached, refused the
         *         secret, or failed; bounded by the connect (3 s) and read (20 s) timeouts, never a hang
         * @throws dev.snowid.ClockBehindException this clock is too far behind the lease's floor; the lease is released
         */
        public SnowidClient build() {
            LeaseSource source = leaseSource;
            String where = "lease source";
            HttpLeaseSource api = null;
            if (source == null) {
                if (leaseUrl == null) {
                    throw new IllegalArgumentException("leaseUrl is not set: give the snowid function's base URL");
                }
                if (secret == null) {
                    throw new IllegalArgumentException("secret is not set: give the lease API's bearer secret");
                }
                String firstSecret = secret.get();
                if (firstSecret == null || firstSecret.trim().isEmpty()) {
                    throw new IllegalArgumentException("secret is empty: give the lease API's bearer secret");
                }
                api = new HttpLeaseSource(leaseUrl, secret, holder != null ? holder : defaultHolder());
                source = api;
                where = api.baseUrl();
            }
            ClientLog out = log != null ? log : ClientLog.javaUtilLogging();
            Lease first = source.acquire();
            long maxSkew = LeaseTerms.DEFAULT.maxClockSkewMillis();
            if (api != null && !LeaseTerms.DEFAULT.toleratesSkew(api.clockSkewMillis())) {
                long skew = api.clockSkewMillis();
                out.warn("this machine's clock is " + Math.abs(skew) + " ms " + (skew > 0 ? "ahead of" : "behind")
                        + " the lease API's: IDs stay unique, but each lease is usable that much " + (skew > 0 ? "shorter" : "later")
                        + "; synchronise the clock (NTP)");
            }
            long planned = planningLeaseMillis(leaseMillis, first.window().expiresAt() - clock.millis());
            LeasedGenerator generator = LeasedGenerator.builder(source, LeaseTerms.of(planned, maxSkew), clock, codec)
                    .renewInBackground() // threads asking for IDs never wait for a renewal while the window holds
                    .waitForFloorUpTo(maxSkew) // the floor is another clock's: a little behind it, wait
                    .startingWith(first)
                    .build();
            LeaseRenewer renewer = new LeaseRenewer(generator, planned, out);
            renewer.start();
            out.info("took " + first + " from " + where + "; renewing every ~" + planned / 2 + " ms");
            return new SnowidClient(generator, renewer, out, where, clock);
        }

        private static String defaultHolder() {
            return "snowid-client " + ManagementFactory.getRuntimeMXBean().getName();
        }
    }

    /** A class, not a lambda: the agent builds a client inside a JVM's start-up, where the first lambda costs tens of ms. */
    private static final class FixedSecret implements Supplier<String> {
        private final String secret;

        FixedSecret(String secret) {
            this.secret = secret;
        }

        @Override
        public String get() {
            return secret;
        }
    }
}
