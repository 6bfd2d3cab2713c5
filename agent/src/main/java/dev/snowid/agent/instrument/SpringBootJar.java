package dev.snowid.agent.instrument;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

/**
 * Finds classes inside Spring Boot executable jars on the application class path, whose own
 * classes sit under {@code BOOT-INF/classes/} and whose libraries are jars nested, uncompressed,
 * under {@code BOOT-INF/lib/} (names from the manifest's {@code Spring-Boot-Classes} and
 * {@code Spring-Boot-Lib}). The system class loader sees none of them. Of each nested jar only
 * the end record and the central directory are read: the JDK skips over a stored entry without
 * reading it, so a big jar costs little more than a small one.
 */
public final class SpringBootJar {

    private static final int END_RECORD = 0x06054b50;
    private static final int END_RECORD_SIZE = 22;
    private static final int DIRECTORY_ENTRY = 0x02014b50;
    private static final int DIRECTORY_ENTRY_SIZE = 46;

    private SpringBootJar() {
    }

    /**
     * Which of {@code resources} ({@code a/b/C.class}) some Spring Boot jar on the class path holds.
     * A nested jar that cannot be read counts as holding all of them: better no note than a false one.
     */
    static Set<String> findOnClassPath(Set<String> resources) {
        Set<String> found = new HashSet<>();
        String classPath = System.getProperty("java.class.path", "");
        for (String entry : classPath.split(File.pathSeparator)) {
            if (found.size() == resources.size()) {
                break;
            }
            if (entry.endsWith(".jar") || entry.endsWith(".war")) {
                find(new File(entry), resources, found);
            }
        }
        return found;
    }

    /** Adds to {@code found} the resources {@code file} holds, when it is a Spring Boot jar. */
    static void find(File file, Set<String> resources, Set<String> found) {
        if (!file.isFile()) {
            return;
        }
        try (JarFile jar = new JarFile(file, false)) {
            Manifest manifest = jar.getManifest();
            Attributes main = manifest == null ? null : manifest.getMainAttributes();
            String lib = main == null ? null : main.getValue("Spring-Boot-Lib");
            String classes = main == null ? null : main.getValue("Spring-Boot-Classes");
            if (lib == null || classes == null) {
                return;
            }
            for (String resource : resources) {
                if (jar.getEntry(classes + resource) != null) {
                    found.add(resource);
                }
            }
            Set<Integer> lengths = new HashSet<>();
            for (String resource : resources) {
                lengths.add(resource.getBytes(StandardCharsets.UTF_8).length);
            }
            for (Enumeration<? extends ZipEntry> entries = jar.entries(); entries.hasMoreElements() && found.size() < resources.size(); ) {
                ZipEntry nested = entries.nextElement();
                if (nested.getName().startsWith(lib) && nested.getName().endsWith(".jar")) {
                    if (nested.getMethod() != ZipEntry.STORED || !namesIn(jar, nested, resources, lengths, found)) {
                        found.addAll(resources);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            found.addAll(resources); // not readable as we expect: say nothing rather than something false
        }
    }

    /** Adds the resources the nested jar holds; false when its directory cannot be read (e.g. ZIP64). */
    private static boolean namesIn(JarFile jar, ZipEntry nested, Set<String> resources, Set<Integer> lengths,
                                   Set<String> found) throws IOException {
        long size = nested.getSize();
        int tailSize = (int) Math.min(size, END_RECORD_SIZE + 0xFFFF);
        byte[] tail = read(jar, nested, size - tailSize, tailSize);
        int end = -1;
        for (int i = tailSize - END_RECORD_SIZE; i >= 0; i--) {
            if (int32(tail, i) == END_RECORD && i + END_RECORD_SIZE + uint16(tail, i + 20) == tailSize) {
                end = i;
                break;
            }
        }
        if (end < 0 || uint16(tail, end + 10) == 0xFFFF || uint32(tail, end + 16) == 0xFFFFFFFFL) {
            return false;
        }
        long directorySize = uint32(tail, end + 12);
        long directoryOffset = uint32(tail, end + 16);
        if (directoryOffset + directorySize > size || directorySize > Integer.MAX_VALUE) {
            return false;
        }
        byte[] directory = read(jar, nested, directoryOffset, (int) directorySize);
        for (int p = 0; p + DIRECTORY_ENTRY_SIZE <= directory.length; ) {
            if (int32(directory, p) != DIRECTORY_ENTRY) {
                return false;
            }
            int nameLength = uint16(directory, p + 28);
            if (lengths.contains(nameLength)) {
                String name = new String(directory, p + DIRECTORY_ENTRY_SIZE, nameLength, StandardCharsets.UTF_8);
                if (resources.contains(name)) {
                    found.add(name);
                }
            }
            p += DIRECTORY_ENTRY_SIZE + nameLength + uint16(directory, p + 30) + uint16(directory, p + 32);
        }
        return true;
    }

    private static byte[] read(JarFile jar, ZipEntry entry, long offset, int length) throws IOException {
        byte[] bytes = new byte[length];
        try (InputStream in = jar.getInputStream(entry)) {
            long skipped = 0;
            while (skipped < offset) {
                long step = in.skip(offset - skipped);
                if (step <= 0) {
                    throw new IOException("cannot skip to " + offset + " in " + entry.getName());
                }
                skipped += step;
            }
            new DataInputStream(in).readFully(bytes);
        }
        return bytes;
    }

    private static int uint16(byte[] b, int i) {
        return (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8;
    }

    private static int int32(byte[] b, int i) {
        return uint16(b, i) | uint16(b, i + 2) << 16;
    }

    private static long uint32(byte[] b, int i) {
        return int32(b, i) & 0xFFFFFFFFL;
    }
}
