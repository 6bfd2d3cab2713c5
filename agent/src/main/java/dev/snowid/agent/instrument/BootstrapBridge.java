package dev.snowid.agent.instrument;

import dev.snowid.agent.bootstrap.SnowidBridge;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
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
import java.security.CodeSource;
import java.util.function.LongSupplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Puts {@code SnowidBridge} on the bootstrap class loader, as OpenTelemetry's agent does with its
 * bootstrap classes: a one-class jar holding its class file is copied into a temporary file that is
 * appended to the bootstrap search path. It must be loaded from there before anything resolves
 * it through the system class loader (which holds the agent jar, and the bridge's class file in it), so this class only names it as a string; {@link BridgeInstaller},
 * loaded afterwards, calls it.
 */
public final class BootstrapBridge {

    private static final String BRIDGE = "dev.snowid.agent.bootstrap.SnowidBridge";
    /** Built from the bridge's class file by the build (the agent's pom). */
    static final String BRIDGE_JAR = "dev/snowid/agent/instrument/bootstrap-bridge.jar";

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
     * created it. The jar is built with the agent ({@value #BRIDGE_JAR}): zipping it here would load
     * java.time and the time-zone rules for its entry's time stamp. The bootstrap loader needs a
     * {@link JarFile}, which opens by name, so before the writing channel is let go the entry is
     * read back through the {@code JarFile} and compared with the bridge's class file in the agent
     * jar: a file swapped in between is refused, not loaded.
     */
    static JarFile writeJar() {
        String entry = BRIDGE.replace('.', '/') + ".class";
        try {
            byte[][] read = fromAgent(BRIDGE_JAR, entry);
            for (int i = 0; i < read.length; i++) {
                if (read[i] == null) {
                    throw new IllegalStateException((i == 0 ? BRIDGE_JAR : entry) + " is missing from the agent jar");
                }
            }
            byte[] bridgeClass = read[1];
            FileChannel[] created = new FileChannel[1];
            File jar = createNewFile(created).toFile();
            jar.deleteOnExit();
            try (FileChannel channel = created[0]) {
                ByteBuffer bytes = ByteBuffer.wrap(read[0]);
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                // No fsync: the file lives as long as this JVM, and what reads it goes through the same
                // page cache; an fsync would only wait for the disk at start-up.
                JarFile opened = new JarFile(jar);
                JarEntry written = opened.getJarEntry(entry);
                byte[] readBack = written == null ? null : readAll(opened.getInputStream(written));
                if (!Arrays.equals(bridgeClass, readBack)) {
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
     * The entries' bytes (null for one that is missing), read from the agent jar opened directly:
     * a class loader's resource lookup would first load the module system's image reader and the
     * {@code jar:} URL handler. Classes from a directory (unit tests) or from a jar that is no
     * plain file are read through their class loader.
     */
    static byte[][] fromAgent(String... entries) throws IOException {
        byte[][] read = new byte[entries.length][];
        File agentJar = agentJar();
        if (agentJar != null) {
            try (JarFile jar = new JarFile(agentJar, false)) {
                for (int i = 0; i < entries.length; i++) {
                    ZipEntry found = jar.getEntry(entries[i]);
                    read[i] = found == null ? null : readAll(jar.getInputStream(found));
                }
            }
            return read;
        }
        ClassLoader loader = BootstrapBridge.class.getClassLoader();
        for (int i = 0; i < entries.length; i++) {
            InputStream in = loader.getResourceAsStream(entries[i]);
            read[i] = in == null ? null : readAll(in);
        }
        return read;
    }

    /** The jar file the agent's classes come from; null when they come from elsewhere, or a security manager will not say. */
    private static File agentJar() {
        try {
            CodeSource source = BootstrapBridge.class.getProtectionDomain().getCodeSource();
            URL location = source == null ? null : source.getLocation();
            if (location == null || !"file".equals(location.getProtocol())) {
                return null;
            }
            File file = new File(location.toURI());
            return file.isFile() ? file : null;
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            return null;
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
