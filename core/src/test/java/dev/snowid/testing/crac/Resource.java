package dev.snowid.testing.crac;

/** What org.crac wraps each registered resource in, for this implementation. */
public interface Resource {

    void beforeCheckpoint(Context<? extends Resource> context) throws Exception;

    void afterRestore(Context<? extends Resource> context) throws Exception;
}
