package dev.snowid.agent.instrument;

import dev.snowid.agent.bootstrap.SnowidBridge;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.EnumSet;
import java.lang.instrument.Instrumentation;
import java.util.function.LongSupplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Puts {@code SnowidBridge} on the bootstrap class loader, as OpenTelemetry's agent does with its
 * bootstrap classes: its class file is copied into a one-class jar in a temporary file that is
 * appended to the bootstrap search path. It must be loaded from there before anything resolves
 * it through the system class loader (which holds the agent jar, and the bridge's class file in it), so this class only names it as a string; {@link BridgeInstaller},
 * loaded afterwards, calls it.
 */
public final class BootstrapBridge {

    private static final String BRIDGE = "dev.snowid.agent.bootstrap.SnowidBridge";

    private BootstrapBridge() {
    }

    /**
     * Injects the bridge (once per JVM) and installs the ID sources in it, one per target.
     *
     * @return the key {@link #uninstall(Object)} takes them out with
     */
    public static Object install(Instrumentation instrumentation, LongSupplier[] perTarget) {
        Class<?> bridge = loadedFromBootstrap();
        if (bridge == null) {
            instrumentation.appendToBootstrapClassLoaderSearch(writeJar());
            bridge = loadedFromBootstrap();
        }
        if (bridge == null || bridge.getClassLoader() != null) {
            throw new IllegalStateException(BRIDGE + " did not load from the bootstrap class loader; redirected methods could not reach the generator");
        }
        // Only now may a class that names the bridge be loaded: it resolves to the bootstrap copy.
        return BridgeInstaller.install(perTarget);
    }

    /** Takes the ID sources out of the bridge again (a start that failed after installing them); the jar stays on the path. */
    public static void uninstall(Object key) {
        BridgeInstaller.uninstall(key);
    }

    private static Class<?> loadedFromBootstrap() {
        try {
            return Class.forName(BRIDGE, true, null);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /**
     * The one-class jar, in a new file only this user can read or write ({@code 0600} from its
     * creation where the file system has POSIX permissions), written through the channel that
     * created it. The bootstrap loader needs a {@link JarFile}, which opens by name, so before the
     * writing channel is let go the entry is read back through the {@code JarFile} and compared
     * with the bytes written: a file swapped in between is refused, not loaded.
     */
    static JarFile writeJar() {
        String entry = BRIDGE.replace('.', '/') + ".class";
        try (InputStream classFile = BootstrapBridge.class.getClassLoader().getResourceAsStream(entry)) {
            if (classFile == null) {
                throw new IllegalStateException(entry + " is missing from the agent jar");
            }
            byte[] bridgeClass = readAll(classFile);
            FileChannel[] created = new FileChannel[1];
            File jar = createNewFile(created).toFile();
            jar.deleteOnExit();
            try (FileChannel channel = created[0]) {
                JarOutputStream out = new JarOutputStream(Channels.newOutputStream(channel));
                out.putNextEntry(new JarEntry(entry));
                out.write(bridgeClass);
                out.closeEntry();
                out.finish();
                out.flush();
                channel.force(true);
                JarFile opened = new JarFile(jar);
                JarEntry written = opened.getJarEntry(entry);
                byte[] read = written == null ? null : readAll(opened.getInputStream(written));
                if (!Arrays.equals(bridgeClass, read)) {
                    opened.close();
                    throw new IllegalStateException("the bootstrap bridge jar " + jar + " does not hold what was written to it;"
                            + " something else changed or replaced it; not loading it");
                }
                return opened;
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not write the bootstrap bridge jar to the temporary directory ("
                    + System.getProperty("java.io.tmpdir") + "): " + e, e);
        }
    }

    /**
     * A new file of our own in the temporary directory, {@code 0600} where permissions are POSIX,
     * and the channel that created it (in {@code channel[0]}), open for writing.
     * Not {@code File.createTempFile}: its {@code SecureRandom} loads the security providers, some
     * 100 classes, on every JVM start. Creating with CREATE_NEW (O_EXCL) refuses any existing file
     * or symlink, so a guessable name can at worst make us try another one.
     */
    private static Path createNewFile(FileChannel[] channel) throws IOException {
        Path directory = Paths.get(System.getProperty("java.io.tmpdir"));
        boolean posix = directory.getFileSystem().supportedFileAttributeViews().contains("posix");
        FileAttribute<?>[] ownerOnly = posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        long seed = System.nanoTime() ^ ((long) System.identityHashCode(new Object()) << 32);
        IOException last = null;
        for (int attempt = 0; attempt < 10; attempt++) {
            Path file = directory.resolve("snowid-bootstrap-" + Long.toHexString(seed + attempt * 0x9E3779B97F4A7C15L) + ".jar");
            try {
                channel[0] = FileChannel.open(file, EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), ownerOnly);
                return file;
            } catch (FileAlreadyExistsException e) {
                last = e;
            }
        }
        throw last;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (InputStream stream = in) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            copy(stream, bytes);
            return bytes.toByteArray();
        }
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) > 0; ) {
            out.write(buffer, 0, n);
        }
    }
}
