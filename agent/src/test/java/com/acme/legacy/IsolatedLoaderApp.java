package com.acme.legacy;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * {@code IsolatedLoaderApp <ids file> <classes dir>}: loads {@code IsolatedIds} through its own
 * URLClassLoader whose parent is the bootstrap loader, so the class cannot see the application
 * class path (where the agent jar is), then calls it.
 */
public final class IsolatedLoaderApp {

    public static void main(String[] args) throws Exception {
        URL classes = new File(args[1]).toURI().toURL();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes}, null)) {
            Class<?> isolated = Class.forName("com.acme.legacy.isolated.IsolatedIds", true, loader);
            if (isolated.getClassLoader() != loader) {
                throw new IllegalStateException("IsolatedIds came from " + isolated.getClassLoader());
            }
            long[] ids = new long[1000];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = (Long) isolated.getMethod("next").invoke(null);
            }
            System.out.println("LOADER " + isolated.getClassLoader());
            IdsOutput.write(args[0], ids);
            System.out.println("DONE " + ids.length);
        }
    }
}
