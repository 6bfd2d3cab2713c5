package dev.snowid.lease;

import java.time.DateTimeException;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.OptionalLong;

/**
 * The one estimate of this clock against a server's, from the HTTP {@code Date} header of an
 * answer (the lease API's, DynamoDB's). The header has whole seconds and was stamped somewhere
 * between our send and our receipt, so the estimate compares the middle of the round trip with the
 * middle of that second: it is off by at most 500 ms plus half the round trip (which is why
 * {@link LeaseTerms#toleratedSkewMillis()} adds {@link LeaseTerms#DATE_HEADER_RESOLUTION_MILLIS}).
 */
public final class DateHeaderSkew {

    private DateHeaderSkew() {
    }

    /**
     * This clock minus the server's, in ms (positive: ahead).
     *
     * @param sentAtMillis this clock when the request was sent
     * @param receivedAtMillis this clock when the answer arrived
     * @param dateHeader the answer's {@code Date} header, RFC 1123 ({@code Tue, 01 Dec 2026 20:04:47 GMT})
     * @return empty when the header is missing or not RFC 1123 (a proxy's page, say)
     */
    public static OptionalLong measure(long sentAtMillis, long receivedAtMillis, String dateHeader) {
        if (dateHeader == null) {
            return OptionalLong.empty();
        }
        long serverSecond;
        try {
            serverSecond = ZonedDateTime.parse(dateHeader.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeException unreadable) {
            return OptionalLong.empty();
        }
        long localMiddle = sentAtMillis + (receivedAtMillis - sentAtMillis) / 2;
        return OptionalLong.of(localMiddle - (serverSecond + LeaseTerms.DATE_HEADER_RESOLUTION_MILLIS / 2));
    }
}
