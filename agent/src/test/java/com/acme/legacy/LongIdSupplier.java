package com.acme.legacy;

import java.util.function.Supplier;

/**
 * An ID source behind a generic interface: javac adds a bridge method {@code Object get()} that
 * calls {@code Long get()}. Only the real method is a target; the bridge must neither be
 * rewritten nor warned about, and calls through the interface reach the redirected method.
 */
public final class LongIdSupplier implements Supplier<Long> {

    @Override
    public Long get() {
        System.out.println(LegacyIds.ORIGINAL_BODY_MARKER + " LongIdSupplier.get");
        return -1L;
    }
}
