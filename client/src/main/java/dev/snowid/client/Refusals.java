package dev.snowid.client;

import dev.snowid.IdUnavailableException;
import dev.snowid.protocol.ErrorCode;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Calls that got no ID, counted by reason: the lease API's 503 code for it ({@link ErrorCode#of}),
 * so that a client's, an agent's and the function's numbers read alike. Thread-safe.
 */
public final class Refusals {

    private final ConcurrentHashMap<String, LongAdder> byReason = new ConcurrentHashMap<>();

    /** Counts {@code refusal} and hands it back, for {@code throw refusals.count(e)}. */
    public IdUnavailableException count(IdUnavailableException refusal) {
        String reason = ErrorCode.of(refusal).code();
        LongAdder count = byReason.get(reason);
        if (count == null) {
            LongAdder fresh = new LongAdder();
            count = byReason.putIfAbsent(reason, fresh);
            if (count == null) {
                count = fresh;
            }
        }
        count.increment();
        return refusal;
    }

    /** The counts so far, by reason, sorted; reasons never seen are absent. */
    public Map<String, Long> snapshot() {
        Map<String, Long> counts = new TreeMap<>();
        for (Map.Entry<String, LongAdder> entry : byReason.entrySet()) {
            counts.put(entry.getKey(), entry.getValue().sum());
        }
        return counts;
    }
}
