package dev.snowid.lambda.dynamodb;

import dev.snowid.WallClock;
import dev.snowid.lease.DateHeaderSkew;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Local clock minus the store's, from the {@code Date} header of every DynamoDB answer (errors
 * included), estimated by {@link DateHeaderSkew}.
 */
final class StoreClockSkew implements ExecutionInterceptor {

    private static final ExecutionAttribute<Long> SENT_AT = new ExecutionAttribute<>("snowid.sentAtMillis");
    private static final long NONE = Long.MIN_VALUE;

    private final WallClock clock;
    private final AtomicLong latestSkew = new AtomicLong(NONE);

    StoreClockSkew(WallClock clock) {
        this.clock = clock;
    }

    OptionalLong skewMillis() {
        long skew = latestSkew.get();
        return skew == NONE ? OptionalLong.empty() : OptionalLong.of(skew);
    }

    void forget() {
        latestSkew.set(NONE);
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        attributes.putAttribute(SENT_AT, clock.millis());
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        long receivedAt = clock.millis();
        Long sentAt = attributes.getAttribute(SENT_AT);
        Optional<String> date = context.httpResponse().firstMatchingHeader("Date");
        if (sentAt == null || date.isEmpty()) {
            return;
        }
        // Not DynamoDB's format (a proxy's page, say): keep the last good estimate.
        DateHeaderSkew.measure(sentAt, receivedAt, date.get()).ifPresent(latestSkew::set);
    }
}
