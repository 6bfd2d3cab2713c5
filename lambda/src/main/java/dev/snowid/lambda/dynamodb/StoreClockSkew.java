package dev.snowid.lambda.dynamodb;

import dev.snowid.WallClock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Local clock minus the store's, from the {@code Date} header of every DynamoDB answer (errors
 * included). The header has 1 s resolution and was stamped somewhere between our send and our
 * receipt, so the estimate compares the middle of the round trip with the middle of the second:
 * it is off by at most 500 ms plus half the round trip.
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
        try {
            long storeSecond = ZonedDateTime.parse(date.get(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            long localMiddle = sentAt + (receivedAt - sentAt) / 2;
            latestSkew.set(localMiddle - (storeSecond + 500));
        } catch (DateTimeParseException unreadable) {
            // Not DynamoDB's format (a proxy's page, say): keep the last good estimate.
        }
    }
}
