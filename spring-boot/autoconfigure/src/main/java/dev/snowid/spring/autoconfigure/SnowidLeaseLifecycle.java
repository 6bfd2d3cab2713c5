package dev.snowid.spring.autoconfigure;

import dev.snowid.client.SnowidClient;
import org.springframework.context.SmartLifecycle;

/**
 * The client's lease follows the context's lifecycle. Stopped (the context closes, or Spring Boot
 * stops every lifecycle bean before a CRaC checkpoint, as AWS SnapStart takes one), the client
 * releases its lease and takes none ({@link SnowidClient#suspend()}); started again (after the
 * restore), it leases anew with a fresh owner token ({@link SnowidClient#resume()}). This is the
 * one mechanism in a Spring application: the starter builds its client without the client's own
 * CRaC hooks, so the lease is released only after the web server stopped, never twice.
 *
 * <p>Spring stops lifecycles from the highest phase down, and Spring Boot's graceful shutdown
 * (phase {@code DEFAULT_PHASE - 1024}, which waits for requests in flight) and web server stop
 * ({@code DEFAULT_PHASE - 2048}) both lie above {@link #PHASE}. Requests still being answered
 * during shutdown keep getting IDs; the slot is free for the next holder as soon as they are done.
 */
public final class SnowidLeaseLifecycle implements SmartLifecycle {

    /** Below the web server's stop on both Boot lines; above the default phase 0 of the application's own lifecycles. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private final SnowidClient client;
    private volatile boolean running;

    public SnowidLeaseLifecycle(SnowidClient client) {
        this.client = client;
    }

    /** The first start: the lease was taken when the client bean was built. After a stop: leases anew, in the background. */
    @Override
    public void start() {
        client.resume();
        running = true;
    }

    /** Releases the lease; the bean's close at the context's end stops the client for good. */
    @Override
    public void stop() {
        running = false;
        client.suspend();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
