package dev.snowid.client;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.client.auth.AwsSigning;
import dev.snowid.client.auth.BearerSecret;
import dev.snowid.client.auth.RequestAuthorizer;
import dev.snowid.internal.WarningCode;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.protocol.EchoedInput;
import dev.snowid.protocol.HolderLabel;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.LeaseAuthMode;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Snowflake IDs in-process, from a slot leased from the snowid lease API:
 * <pre>{@code
 * SnowidClient ids = SnowidClient.builder()
 *         .leaseUrl("https://abc123.execute-api.eu-west-1.amazonaws.com")
 *         .awsIam()            // SigV4, with this workload's own role (the AWS SDK's default chain)
 *         .build();            // leases a slot now: a wrong URL or refused caller fails here
 * long id = ids.nextId();
 * ids.close();                 // releases the slot, so the next holder can start at once
 * }</pre>
 * Outside AWS, {@code .secret(() -> System.getenv("SNOWID_LEASE_SECRET"))} instead of {@code .awsIam()}.
 *
 * <p>The lease is taken by {@link Builder#build()}, not lazily: a wrong URL, a refused secret or
 * an exhausted pool stop the application at start-up rather than at its first insert. A daemon
 * thread alone talks to the lease API afterwards: it renews the lease well before it ends, and
 * leases anew after a loss. {@link #nextId()} never waits on the network: without a window in
 * force it fails at once ({@link IdUnavailableException}, nothing issued). Thread-safe.
 */
public final class SnowidClient implements AutoCloseable {

    private final LeasedGenerator generator;
    private final LeaseRenewer renewer;
    private final ClientLog log;
    private final SnowflakeCodec codec;
    private final WallClock clock;
    private final LeaseRecord record;
    /** What the lease source forgets after a snapshot restore (the id of an unanswered acquisition, the measured skew). */
    private final Runnable forgetSourceState;
    private final LeaseAuthMode auth;
    private final LongAdder issued = new LongAdder();
    private final Refusals refusals = new Refusals();
    /** The CRaC resource, when registered: org.crac holds its resources weakly, so the client holds it. */
    private volatile Object snapshotHooks;
    private volatile boolean closed;

    private SnowidClient(LeasedGenerator generator, LeaseRenewer renewer, ClientLog log, SnowflakeCodec codec, WallClock clock,
                         LeaseRecord record, Runnable forgetSourceState, LeaseAuthMode auth) {
        this.generator = generator;
        this.renewer = renewer;
        this.log = log;
        this.codec = codec;
        this.clock = clock;
        this.record = record;
        this.forgetSourceState = forgetSourceState;
        this.auth = auth;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * One ID under the confirmed lease; never waits on the lease API.
     *
     * @throws IdUnavailableException at once when none can be issued now (no window in force: the
     *         lease lost or run out and no new one confirmed yet, a call to the API in progress, the
     *         clock behind or too far off); {@link IdUnavailableException#retryAfterMillis()} says
     *         when to try again
     */
    public long nextId() {
        refuseWhenClosed();
        try {
            long id = generator.nextId();
            issued.increment();
            return id;
        } catch (IdUnavailableException e) {
            throw refused(e);
        }
    }

    /** {@code count} increasing IDs (1 to 4,096) under one confirmed lease; never waits on the lease API. */
    public long[] nextIds(int count) {
        refuseWhenClosed();
        try {
            long[] ids = generator.nextIds(count);
            issued.add(ids.length);
            return ids;
        } catch (IdUnavailableException e) {
            throw refused(e);
        }
    }

    /** The ID layout and epoch this client issues with: the configured one, or the lease API's when none was. */
    public SnowflakeCodec codec() {
        return codec;
    }

    /** What this client has done so far: lease, IDs issued, refusals by reason, renewals. */
    public ClientStats stats() {
        Lease lease = generator.currentLease().orElse(null);
        long left = lease == null ? -1 : Math.max(0, lease.window().expiresAt() - clock.millis());
        return new ClientStats(lease, left, issued.sum(), refusals.snapshot(), record.renewals(), renewer.failures(), record.losses());
    }

    /** Counts a refusal by reason, and wakes the renewer: the only thread that can get a window again. */
    private IdUnavailableException refused(IdUnavailableException e) {
        if (renewer.paused()) {
            return refusals.count(new IdUnavailableException("this SnowidClient is suspended (for a snapshot, or its application"
                    + " context stopped) and holds no lease; it leases anew once resumed", 1000, e));
        }
        renewer.wake();
        return refusals.count(e);
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
            generator.shutdown(); // the release's audit line comes from the generator's events
        } catch (RuntimeException e) {
            log.warn(WarningCode.LEASE_RELEASE_FAILED.tag("could not release the lease (it simply runs out): " + e.getMessage()));
        }
    }

    /**
     * Before a snapshot of this JVM (a CRaC checkpoint, Lambda SnapStart): releases the lease with
     * the last issued ms and takes none until {@link #resume()}, so that no restored copy inherits
     * it; {@link #nextId()} refuses meanwhile. Waits for a call to the lease API in progress.
     * Called by the client's own CRaC hooks ({@link Builder#snapshotHooks(boolean)}) or by whoever
     * manages the life cycle instead (the Spring Boot starter). Idempotent; does nothing once closed.
     */
    public void suspend() {
        if (closed) {
            return;
        }
        renewer.pause();
        try {
            generator.release();
        } catch (RuntimeException e) {
            log.warn(WarningCode.LEASE_RELEASE_FAILED.tag("could not release the lease before the snapshot (no restored copy uses it; it runs out): "
                    + e.getMessage()));
        }
    }

    /**
     * After a restore (or to go on after {@link #suspend()}): forgets whatever the snapshot holds
     * (a lease, the measured clock skew, the id of an unanswered acquisition) and leases anew in the
     * background, with a fresh owner token and request id. Until that lease is confirmed,
     * {@link #nextId()} refuses as it does without a lease. Does nothing unless suspended.
     */
    public void resume() {
        if (closed || !renewer.paused()) {
            return;
        }
        generator.forget();
        forgetSourceState.run();
        renewer.resume();
    }

    /** Whether {@link #suspend()} was called and no {@link #resume()} since. */
    public boolean isSuspended() {
        return !closed && renewer.paused();
    }

    /** How lease requests are authorized: a bearer secret or AWS SigV4; null with a lease source other than the API. */
    public LeaseAuthMode leaseAuth() {
        return auth;
    }

    /** True once {@link #close()} was called: the client never issues again (a lost lease, by contrast, is leased anew). */
    public boolean isClosed() {
        return closed;
    }

    private void refuseWhenClosed() {
        if (closed) {
            throw refusals.count(new IdUnavailableException("this SnowidClient is closed and its lease released; no ID is issued", 1000));
        }
    }

    /** The settings of a {@link SnowidClient}; errors name the setting. */
    public static final class Builder {
        /** Longest {@link #waitForSlotUpTo(long)}: an hour, the longest lease (by then every dead holder's slot is free). */
        public static final long MAX_SLOT_WAIT_MILLIS = LeaseTerms.MAX_LEASE_MILLIS;

        private URL leaseUrl;
        private Supplier<String> secret;
        private AwsSigning signing;
        private String holder;
        private long leaseMillis;
        /** Null: adopt the lease API's epoch. */
        private SnowflakeCodec codec;
        private long slotWaitMillis;
        private ClientLog log;
        private WallClock clock = WallClock.SYSTEM;
        private ClientSeams seams = ClientSeams.PRODUCTION;
        private long startupDeadlineMillis = ClientSettings.DEFAULT_STARTUP_DEADLINE_MILLIS;
        private boolean snapshotHooks = true;
        private boolean allowPlainHttp;
        private boolean auditAtInfo;

        private Builder() {
        }

        /** The snowid function's base URL, the one its routes hang under (the template's {@code LeaseUrl} output). Required. */
        public Builder leaseUrl(String url) {
            if (url == null || url.trim().isEmpty()) {
                throw new IllegalArgumentException("leaseUrl is empty: give the snowid function's base URL, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com");
            }
            try {
                return leaseUrl(HttpUrl.parse(url.trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("leaseUrl '" + HttpUrl.shown(String.valueOf(url)) + "' " + e.getMessage());
            }
        }

        public Builder leaseUrl(URL url) {
            if (url == null) {
                throw new IllegalArgumentException("leaseUrl is null: give the snowid function's base URL");
            }
            try {
                this.leaseUrl = HttpUrl.check(url);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("leaseUrl '" + HttpUrl.shown(String.valueOf(url)) + "' " + e.getMessage());
            }
            return this;
        }

        /**
         * Sign every lease request with AWS SigV4 ({@code execute-api}), with credentials from the AWS
         * SDK v2's default chain and the region from the lease URL's host: the same as
         * {@code signing(AwsSigning.defaultCredentials())}. Needs the SDK on the class path
         * ({@value AwsSigning#SIGNER_ARTIFACT}, {@value AwsSigning#CREDENTIALS_ARTIFACT}).
         */
        public Builder awsIam() {
            return signing(AwsSigning.defaultCredentials());
        }

        /** Sign every lease request with AWS SigV4 as {@code signing} says (e.g. with a region, for a custom domain). Instead of a secret. */
        public Builder signing(AwsSigning signing) {
            if (signing == null) {
                throw new IllegalArgumentException("signing is null: give AwsSigning.defaultCredentials()");
            }
            this.signing = signing;
            return this;
        }

        /** True: the secret may cross plain http to a host that is not loopback (a trusted network); else build() refuses. */
        public Builder allowPlainHttp(boolean allow) {
            this.allowPlainHttp = allow;
            return this;
        }

        /** The lease API's bearer secret, for callers outside AWS. Required, unless requests are signed ({@link #awsIam()}). */
        public Builder secret(String secret) {
            return secret(BearerSecret.fixed(secret));
        }

        /** Asked for the bearer secret on every call to the lease API, so a rotated secret is picked up. Required. */
        public Builder secret(Supplier<String> secret) {
            if (secret == null) {
                throw new IllegalArgumentException("secret is null: give the lease API's bearer secret");
            }
            this.secret = secret;
            return this;
        }

        /**
         * Who holds the lease, shown to operators; default {@code snowid-client <pid>@<host>}. 1 to 200
         * printable characters ({@link HolderLabel}): the lease API refuses others.
         */
        public Builder holder(String holder) {
            String problem = HolderLabel.problem(holder);
            if (problem != null) {
                throw new IllegalArgumentException("holder " + (holder == null ? "is null" : "'" + EchoedInput.shortened(holder) + "' "
                        + problem) + "; allowed " + ClientSettings.HOLDER.allowed());
            }
            this.holder = holder;
            return this;
        }

        /**
         * Plan renewals for a lease this long (ms, {@value LeaseTerms#MIN_LEASE_MILLIS} to
         * {@value LeaseTerms#MAX_LEASE_MILLIS}); never longer than the API grants. Default: what it grants.
         */
        public Builder leaseMillis(long millis) {
            this.leaseMillis = LeaseTerms.LEASE_MILLIS_RANGE.check(ClientSettings.LEASE_MILLIS.name(), millis);
            return this;
        }

        /**
         * The ID layout and epoch. Default: the lease API's epoch, as its lease names it. When set,
         * it must be the lease API's: {@link #build()} refuses another ({@link EpochMismatchException}).
         */
        public Builder codec(SnowflakeCodec codec) {
            if (codec == null) {
                throw new IllegalArgumentException("codec is null");
            }
            this.codec = codec;
            return this;
        }

        /**
         * When every slot of the pool is held at {@link #build()}, wait up to this long (ms, 0 to
         * {@value #MAX_SLOT_WAIT_MILLIS}) for one to free, asking again when the API's Retry-After says one
         * does. Default 0: fail at once with {@link NoFreeSlotException}.
         */
        public Builder waitForSlotUpTo(long millis) {
            this.slotWaitMillis = ClientSettings.Ranges.WAIT_FOR_SLOT.check(ClientSettings.WAIT_FOR_SLOT.name(), millis);
            return this;
        }

        /**
         * How long {@link #build()} asks again (ms, 0 to 600,000; default 10,000), with the same request
         * id, when the lease API gave no answer or one that settles nothing (a 5xx {@code store_unavailable},
         * {@code unavailable} or {@code internal}, a gateway's page): a slot granted to a lost answer is
         * then answered again rather than stranded. An attempt in progress at the deadline runs to its
         * own timeout. Every other answer fails at once.
         */
        public Builder startupDeadline(long millis) {
            this.startupDeadlineMillis = ClientSettings.Ranges.STARTUP_DEADLINE.check(ClientSettings.STARTUP_DEADLINE.name(), millis);
            return this;
        }

        /**
         * With {@code org.crac} on the class path, whether the client registers its own CRaC resource,
         * which calls {@link SnowidClient#suspend()} before a checkpoint and {@link SnowidClient#resume()}
         * after a restore (AWS SnapStart runs these hooks). Default true; false when something else calls
         * them, as the Spring Boot starter's lifecycle does.
         */
        public Builder snapshotHooks(boolean register) {
            this.snapshotHooks = register;
            return this;
        }

        /** True: audit lines at INFO ({@link ClientLog#audit}); default false: below it ({@link ClientLog#auditBelowInfo}). */
        public Builder auditAtInfo(boolean atInfo) {
            this.auditAtInfo = atInfo;
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
            return seams(seams.withSource(source));
        }

        /** Another lease source, clock and renewer ticks: for the simulator (testing/simulator). */
        Builder seams(ClientSeams seams) {
            this.seams = seams;
            return this;
        }

        /**
         * Leases a slot and starts renewing it.
         *
         * @throws IllegalArgumentException a setting is missing, named
         * @throws NoFreeSlotException every slot of the API's pool is held (for longer than {@link #waitForSlotUpTo(long)})
         * @throws dev.snowid.lease.LeaseStoreUnavailableException the API cannot be reached or failed;
         *         bounded by the connect (3 s) and read (20 s) timeouts, never a hang
         * @throws dev.snowid.client.LeaseSecretRefusedException the API refused the secret (401/403)
         * @throws EpochMismatchException the configured epoch is not the API's; the lease is released
         * @throws dev.snowid.lease.ClockSkewException this clock is too far from the API's; the lease is released
         * @throws dev.snowid.ClockBehindException this clock is too far behind the lease's floor; the lease is released
         */
        public SnowidClient build() {
            LeaseSource source = seams.source;
            HttpLeaseSource api = null;
            String who = holder != null ? holder : defaultHolder();
            if (source == null) {
                if (leaseUrl == null) {
                    throw new IllegalArgumentException("leaseUrl is not set: give the snowid function's base URL");
                }
                api = new HttpLeaseSource(leaseUrl, authorizer(), who, clock);
                if (codec != null) {
                    api.expectEpoch(codec.epochMillis()); // a lease naming another epoch is released, never used
                }
                source = api;
            }
            ClientLog out = log != null ? log : ClientLog.javaUtilLogging();
            Lease first = FirstLease.acquire(source, startupDeadlineMillis, slotWaitMillis, out, seams.monotonic);
            SnowflakeCodec issuing = codec != null ? codec : AdoptedEpoch.codec(api, source, first);
            long planned = LeaseRenewer.planningLeaseMillis(leaseMillis, first.window().expiresAt() - clock.millis());
            // The tolerance the lease allows (a quarter of it, less the Date header's second), at most the default's.
            long maxSkew = Math.min(LeaseTerms.DEFAULT.maxClockSkewMillis(), LeaseTerms.largestMaxClockSkewFor(planned));
            LeaseRecord record = new LeaseRecord(out, who, auditAtInfo);
            LeasedGenerator generator = LeasedGenerator.builder(source, LeaseTerms.of(planned, maxSkew), clock, issuing)
                    .renewInBackground() // threads asking for IDs never wait on the lease API
                    .waitForFloorUpTo(LeaseTerms.DEFAULT.maxClockSkewMillis()) // the floor is another clock's: a little behind it, wait
                    .events(record).monotonicClock(seams.monotonic)
                    .startingWith(first) // gives it back if this clock is too far from the API's
                    .build();
            LeaseRenewer renewer = new LeaseRenewer(generator, planned, out, seams.ticks());
            renewer.start();
            SnowidClient client = new SnowidClient(generator, renewer, out, issuing, clock, record,
                    api != null ? new ClientSeams.ApiForgets(api) : seams.forgetAfterRestore,
                    api == null ? null : signing != null ? LeaseAuthMode.AWS_IAM : LeaseAuthMode.BEARER);
            boolean hooked = snapshotHooks && CracOnClassPath.present();
            if (hooked) {
                client.snapshotHooks = SnapshotHooks.register(client);
            }
            out.info("leasing from " + (api != null ? HttpUrl.shown(api.baseUrl()) + " with " + api.authorization() : "the given lease source")
                    + " as '" + who + "': renewing every ~" + planned / 2 + " ms, IDs with epoch " + issuing.epochMillis() + (codec != null ? "" : " (the lease API's)")
                    + (api != null && api.clockSkewMillis().isPresent() ? ", this clock " + api.clockSkewMillis().getAsLong()
                    + " ms from the API's (tolerated: " + (maxSkew + LeaseTerms.DATE_HEADER_RESOLUTION_MILLIS) + ")" : "")
                    + (hooked ? "; CRaC hooks registered: the lease is released before a checkpoint and taken anew after a restore"
                    : ""));
            return client;
        }

        /** The secret or the signature, exactly one of them. */
        private RequestAuthorizer authorizer() {
            if (secret != null && signing != null) {
                throw new IllegalArgumentException("secret and signing (awsIam) are both set: choose one, IAM signing inside AWS, "
                        + "the bearer secret outside");
            }
            if (signing != null) {
                return signing.authorizerFor(leaseUrl);
            }
            if (secret == null) {
                throw new IllegalArgumentException("secret is not set, nor signing: give awsIam() (SigV4 with this workload's AWS "
                        + "credentials) or the lease API's bearer secret");
            }
            HttpUrl.requireSafeForSecret(leaseUrl, "leaseUrl '" + HttpUrl.shown(leaseUrl.toString()) + "'", allowPlainHttp, "allowPlainHttp(true)");
            String firstSecret = secret.get();
            if (firstSecret == null || firstSecret.trim().isEmpty()) {
                throw new IllegalArgumentException("secret is empty: give the lease API's bearer secret");
            }
            BearerSecretStrength.requireStrong("secret", firstSecret.trim());
            return new BearerSecret(secret);
        }

        private static String defaultHolder() {
            return HolderLabel.of("snowid-client " + ManagementFactory.getRuntimeMXBean().getName());
        }
    }
}
