package dev.snowid.testing.crac;

import java.util.ArrayList;
import java.util.List;

/** The global context: every resource registered, in order, held strongly (a test's JVM is short-lived). */
public class Context<R extends Resource> implements Resource {

    private final List<R> registered = new ArrayList<>();

    public synchronized void register(R resource) {
        registered.add(resource);
    }

    synchronized List<R> registered() {
        return new ArrayList<>(registered);
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) throws CheckpointException {
        List<R> newestFirst = registered();
        java.util.Collections.reverse(newestFirst);
        CheckpointException failed = new CheckpointException();
        for (R resource : newestFirst) {
            try {
                resource.beforeCheckpoint(this);
            } catch (Exception e) {
                failed.addSuppressed(e);
            }
        }
        if (failed.getSuppressed().length > 0) {
            throw failed;
        }
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) throws RestoreException {
        RestoreException failed = new RestoreException();
        for (R resource : registered()) {
            try {
                resource.afterRestore(this);
            } catch (Exception e) {
                failed.addSuppressed(e);
            }
        }
        if (failed.getSuppressed().length > 0) {
            throw failed;
        }
    }
}
