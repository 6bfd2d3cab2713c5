package com.acme.legacy.isolated;

/** Loaded only through its own URLClassLoader (no parent but bootstrap) by {@code IsolatedLoaderApp}. */
public final class IsolatedIds {

    public static long next() {
        System.out.println("ORIGINAL-BODY-RAN isolated");
        return -1;
    }
}
