package dev.snowid.testing.engine;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Records the SDK operations a client calls (e.g. {@code UpdateItem}) and the HTTP attempts
 * it makes (round trips, retries included). Add it with {@code LeaseTableClient.Builder#interceptor}.
 */
public final class SdkCalls implements ExecutionInterceptor {

    private final ConcurrentLinkedQueue<String> operations = new ConcurrentLinkedQueue<>();
    private final AtomicInteger attempts = new AtomicInteger();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        operations.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        attempts.incrementAndGet();
    }

    /** Operation names in call order. */
    public List<String> operations() {
        return List.copyOf(operations);
    }

    /** How many calls of each operation. */
    public Map<String, Integer> counts() {
        Map<String, Integer> counts = new TreeMap<>();
        operations.forEach(operation -> counts.merge(operation, 1, Integer::sum));
        return counts;
    }

    /** HTTP requests sent, retries included. */
    public int attempts() {
        return attempts.get();
    }

    public void clear() {
        operations.clear();
        attempts.set(0);
    }
}
