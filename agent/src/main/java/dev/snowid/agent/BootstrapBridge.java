package dev.snowid.agent;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.util.function.LongSupplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Puts {@code SnowidBridge} on the bootstrap class loader, as OpenTelemetry's agent does with its
 * bootstrap classes: its class file is copied into a one-class jar in a temporary file that is
 * appended to the bootstrap search path. It must be loaded from there before anything resolves
 * it through the agent's own loader, so it is only ever touched by name and reflection here.
 */
final class BootstrapBridge {

    private static final String BRIDGE = "dev.snowid.agent.bootstrap.SnowidBridge";

    private BootstrapBridge() {
    }

    /** Injects the bridge (once per JVM) and installs {@code idSource} in it. */
    static void install(Instrumentation instrumentation, LongSupplier idSource) {
        Class<?> bridge = loadedFromBootstrap();
        if (bridge == null) {
            instrumentation.appendToBootstrapClassLoaderSearch(writeJar());
            bridge = loadedFromBootstrap();
        }
        if (bridge == null || bridge.getClassLoader() != null) {
            throw new IllegalStateException(BRIDGE + " did not load from the bootstrap class loader; redirected methods could not reach the generator");
        }
        try {
            bridge.getMethod("install", LongSupplier.class).invoke(null, idSource);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not install the ID source in " + BRIDGE + ": " + e.getCause(), e);
        }
    }

    private static Class<?> loadedFromBootstrap() {
        try {
            return Class.forName(BRIDGE, true, null);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    private static JarFile writeJar() {
        String entry = BRIDGE.replace('.', '/') + ".class";
        try (InputStream classFile = BootstrapBridge.class.getClassLoader().getResourceAsStream(entry)) {
            if (classFile == null) {
                throw new IllegalStateException(entry + " is missing from the agent jar");
            }
            File jar = File.createTempFile("snowid-bootstrap-", ".jar");
            jar.deleteOnExit();
            try (JarOutputStream out = new JarOutputStream(new FileOutputStream(jar))) {
                out.putNextEntry(new JarEntry(entry));
                copy(classFile, out);
                out.closeEntry();
            }
            return new JarFile(jar);
        } catch (IOException e) {
            throw new IllegalStateException("could not write the bootstrap bridge jar to the temporary directory ("
                    + System.getProperty("java.io.tmpdir") + "): " + e, e);
        }
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) > 0; ) {
            out.write(buffer, 0, n);
        }
    }
}
