package dev.snowid.spring.autoconfigure.metrics;

import dev.snowid.client.SnowidClient;
import dev.snowid.protocol.ErrorCode;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToDoubleFunction;

/**
 * The client's counts as Micrometer meters, read from {@link SnowidClient#stats()} when the
 * registry asks (nothing is added to the path of {@code nextId()}):
 * {@value #ISSUED}, {@value #REFUSED} (tag {@code reason}), {@value #RENEWALS},
 * {@value #RENEWAL_FAILURES}, {@value #LOST}, and the gauge {@value #LEASE_LEFT} (ms).
 */
public final class SnowidMeters implements MeterBinder {

    public static final String ISSUED = "snowid.ids.issued";
    public static final String REFUSED = "snowid.ids.refused";
    public static final String RENEWALS = "snowid.lease.renewals";
    public static final String RENEWAL_FAILURES = "snowid.lease.renewal.failures";
    public static final String LOST = "snowid.leases.lost";
    public static final String LEASE_LEFT = "snowid.lease.remaining";

    private final SnowidClient client;

    public SnowidMeters(SnowidClient client) {
        this.client = client;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, ISSUED, "IDs issued by this application's snowid client", c -> c.stats().idsIssued());
        for (ErrorCode code : ErrorCode.values()) {
            if (code.status() == 503) { // the reasons a call gets no ID (ClientStats#refusals)
                String reason = code.code();
                FunctionCounter.builder(REFUSED, client, c -> c.stats().refusals().getOrDefault(reason, 0L))
                        .description("Calls for an ID that were refused, by reason (the lease API's code for it)")
                        .tag("reason", reason)
                        .register(registry);
            }
        }
        counter(registry, RENEWALS, "Lease renewals the lease API confirmed", c -> c.stats().renewals());
        counter(registry, RENEWAL_FAILURES, "Attempts to renew or take a lease that failed without the lease being lost",
                c -> c.stats().renewalFailures());
        counter(registry, LOST, "Leases lost (taken over, or no longer ours); IDs are refused until a new one is confirmed",
                c -> c.stats().leasesLost());
        Gauge.builder(LEASE_LEFT, client, c -> c.stats().leaseMillisLeft())
                .description("Milliseconds until the lease window in force ends; -1 without a lease")
                .baseUnit("milliseconds")
                .register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, ToDoubleFunction<SnowidClient> count) {
        FunctionCounter.builder(name, client, count).description(description).register(registry);
    }
}
