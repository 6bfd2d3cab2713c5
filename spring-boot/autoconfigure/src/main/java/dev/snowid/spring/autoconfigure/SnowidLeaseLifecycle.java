package dev.snowid.spring.autoconfigure;

import dev.snowid.client.SnowidClient;
import org.springframework.context.SmartLifecycle;

/**
 * Releases the client's lease when the context closes, after the web server has stopped: Spring
 * stops lifecycles from the highest phase down, and Spring Boot's graceful shutdown (phase
 * {@code DEFAULT_PHASE - 1024}, which waits for requests in flight) and web server stop
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

    /** The lease was taken when the client bean was built; nothing more to start. */
    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        client.close();
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
