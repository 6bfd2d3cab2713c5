package dev.snowid.testing;

import dev.snowid.WallClock;
import java.util.concurrent.atomic.AtomicLong;

/** A wall clock that tests move by hand, from any thread. */
public final class ManualClock implements WallClock {

    private final AtomicLong now;

    public ManualClock(long startMillis) {
        this.now = new AtomicLong(startMillis);
    }

    @Override
    public long millis() {
        return now.get();
    }

    public void set(long millis) {
        now.set(millis);
    }

    public void advance(long millis) {
        now.addAndGet(millis);
    }
}
