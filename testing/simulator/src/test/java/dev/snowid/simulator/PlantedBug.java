package dev.snowid.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A bug planted at test time, never in main code: the production source (or the in-memory
 * table's, which carries the same conditions as the DynamoDB store) read from the working tree,
 * one or two exact replacements made (each must match once, so a refactoring that moves the code
 * fails here loudly instead of planting nothing), compiled, and loaded child-first with the
 * simulator, which then runs on the mutated class.
 */
enum PlantedBug {

    RENEW_WITHOUT_FENCE("testing/fixtures/src/main/java/dev/snowid/testing/InMemoryLeaseStore.java",
            "Row row = held(slot, owner, fence, \"renew\");",
            "Row row = table.containsKey(slot.index()) ? table.get(slot.index()) : held(slot, owner, fence, \"renew\");"),
    NO_PER_ID_CEILING("core/src/main/java/dev/snowid/SnowflakeGenerator.java",
            "if (now >= lease.expiresAt()) {",
            "if (false && now >= lease.expiresAt()) {"),
    MARKER_TRUSTED_WITHOUT_REGISTRY("core/src/main/java/dev/snowid/region/RegionGuard.java",
            "if (last == null || !last.freshAt(clock.millis()) || marker == null || !last.claimId.equals(marker.claimId())\n"
                    + "                    || marker.state() != ClaimMarker.State.CLAIMED) {",
            "if (marker == null || !marker.confirms(claimant)) {"),
    FLOOR_LOST_ON_RECLAIM("core/src/main/java/dev/snowid/region/BlockHandover.java",
            "if (floor <= 0) {",
            "if (floor <= 0 || true) {"),
    SKEW_CHECK_OFF("core/src/main/java/dev/snowid/lease/LeaseTerms.java",
            "return measuredSkewMillis >= -toleratedSkewMillis() && measuredSkewMillis <= toleratedSkewMillis();",
            "return true;"),
    REPLAY_NOT_BOUND_TO_HOLDER("core/src/main/java/dev/snowid/lease/PooledLeaseSource.java",
            "if (!claim.isFor(requestId, who)) {",
            "if (!claim.requestId().equals(requestId)) {"),
    SNAPSHOT_KEEPS_LEASE("client/src/main/java/dev/snowid/client/SnowidClient.java",
            "generator.release();", "// kept over the checkpoint",
            "generator.forget();", "// nothing forgotten after the restore"),
    /** Reverts the fix of the back-off a clock stepped back through (found by the simulator). */
    BACKOFF_OUTLIVES_CLOCK_STEP("core/src/main/java/dev/snowid/lease/LeaseSchedule.java",
            "return now < backOffSetAt ? now : nextAcquireAt;",
            "return nextAcquireAt;"),
    /** Reverts the fix that lets a claim be completed again after a partial failure (found by the simulator). */
    CLAIM_AGAIN_NOT_RERUNNABLE("core/src/main/java/dev/snowid/region/BlockHandover.java",
            "String claimId = inForce != null && inForce.heldBy(claimant, markers.table()) ? inForce.claimId() : HexToken.draw(new SecureRandom());",
            "String claimId = HexToken.draw(new SecureRandom());");

    private final String source;
    private final String[] replacements;

    PlantedBug(String source, String... replacements) {
        this.source = source;
        this.replacements = replacements;
    }

    /** The class the source file declares. */
    private String className() {
        String path = source.substring(source.indexOf("/java/") + "/java/".length());
        return path.substring(0, path.length() - ".java".length()).replace('/', '.');
    }

    private static Path root() {
        Path here = Paths.get("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("testing/simulator")) && Files.isDirectory(dir.resolve("core/src/main/java"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no snowid working tree above " + here);
    }

    /** The mutated source; fails unless each replaced text occurs exactly once. */
    String mutatedSource() throws IOException {
        String text = Files.readString(root().resolve(source));
        for (int i = 0; i < replacements.length; i += 2) {
            int first = text.indexOf(replacements[i]);
            if (first < 0 || text.indexOf(replacements[i], first + 1) >= 0) {
                throw new IllegalStateException(this + ": '" + replacements[i] + "' must occur exactly once in " + source
                        + " to plant the bug; the code moved: update the planted bug");
            }
            text = text.replace(replacements[i], replacements[i + 1]);
        }
        return text;
    }

    /** A class loader running the simulator on the mutated class (and on fresh copies of everything else of snowid's). */
    ClassLoader loader() throws IOException {
        Path work = Files.createTempDirectory("planted-" + name());
        Path sourceFile = work.resolve("src").resolve(className().replace('.', '/') + ".java");
        Files.createDirectories(sourceFile.getParent());
        Files.writeString(sourceFile, mutatedSource());
        Path classes = Files.createDirectories(work.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, System.err, "-nowarn", "-proc:none", "-cp", System.getProperty("java.class.path"), "-d",
                classes.toString(), sourceFile.toString());
        if (status != 0) {
            throw new IllegalStateException(this + ": the mutated " + source + " does not compile");
        }
        Map<String, byte[]> mutated = new HashMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String name = classes.relativize(file).toString().replace('/', '.').replace('\\', '.');
                mutated.put(name.substring(0, name.length() - ".class".length()), Files.readAllBytes(file));
            }
        }
        try (Stream<Path> files = Files.walk(work)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete()); // the bytes are in memory now
        }
        return new Mutated(classPath(), mutated);
    }

    /** Runs the simulator's {@code method} under {@code loader}. */
    static Object call(ClassLoader loader, String method, Class<?>[] types, Object... args) {
        try {
            Method target = loader.loadClass(Simulator.class.getName()).getMethod(method, types);
            return target.invoke(null, args);
        } catch (InvocationTargetException failed) {
            throw new IllegalStateException("the simulator failed under a planted bug", failed.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static URL[] classPath() {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            try {
                urls.add(Paths.get(entry).toUri().toURL());
            } catch (MalformedURLException e) {
                throw new UncheckedIOException(e);
            }
        }
        return urls.toArray(new URL[0]);
    }

    /** Child-first for snowid's classes (but the JCA provider's stream holder, global by nature), the mutated ones from their bytes. */
    private static final class Mutated extends URLClassLoader {
        private final Map<String, byte[]> mutated;

        Mutated(URL[] classPath, Map<String, byte[]> mutated) {
            super(classPath, PlantedBug.class.getClassLoader());
            this.mutated = mutated;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("dev.snowid.") || name.startsWith(SeededRandomness.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] bytes = mutated.get(name);
                    loaded = bytes != null ? defineClass(name, bytes, 0, bytes.length) : findClass(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }
    }
}
