package dev.snowid.spring.tests.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.stereotype.Component;

/** Lets a request be in flight while the context closes: the request waits until the close has begun. */
@Component
public class ShutdownProbe implements ApplicationListener<ContextClosedEvent> {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch closing = new CountDownLatch(1);

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        closing.countDown();
    }

    void enter() throws InterruptedException {
        entered.countDown();
        if (!closing.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the context did not start closing within 30 s");
        }
    }

    /** Waits (up to 30 s) until a request is inside {@link #enter()}. */
    public boolean awaitRequestInFlight() throws InterruptedException {
        return entered.await(30, TimeUnit.SECONDS);
    }
}
