package dev.snowid.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.Remapper;
import org.junit.jupiter.api.Test;

/**
 * The rule of {@code dev.snowid.agent}'s package documentation: no lambda or method reference in
 * a class {@code premain} can reach. Reads the class files (agent, core, client) with ASM and
 * follows every {@code dev.snowid} class {@link SnowidAgent} names, transitively: a superset of
 * what start-up loads, so nothing slips through on a rarely taken branch.
 */
class StartUpPathTest {

    private static final String LAMBDA_METAFACTORY = "java/lang/invoke/LambdaMetafactory";

    /**
     * Methods of classes on the path that start-up never runs. The scan follows classes, not
     * calls, so each is named here with why; anything else with a lambda fails the test.
     */
    private static final List<String> NEVER_RUN_AT_START_UP = Collections.singletonList(
            // the lease API's server builds a slot map; the agent only parses one, in its CLI
            "dev.snowid.protocol.SlotMap.of");

    @Test
    void noClassOnTheAgentsStartUpPathBootstrapsALambda() throws IOException {
        Scan scan = Scan.from(SnowidAgent.class, "dev/snowid/");
        scan.lambdas.removeAll(NEVER_RUN_AT_START_UP);
        assertTrue(scan.reached.contains("dev/snowid/SnowflakeGenerator"), "core's generator is on the path: " + scan.reached);
        assertTrue(scan.reached.contains("dev/snowid/client/SnowidClient"), "the client is on the path: " + scan.reached);
        assertTrue(scan.reached.contains("dev/snowid/agent/runtime/LeasedNode"), "the agent's runtime is on the path: " + scan.reached);
        assertEquals(new ArrayList<String>(), scan.lambdas,
                "lambdas or method references on the agent's start-up path (use a named class; see dev.snowid.agent's package-info)");
    }

    @Test
    void theScanFindsALambdaAndAMethodReference() throws IOException {
        Scan scan = Scan.from(WithLambdas.class, WithLambdas.class.getName().replace('.', '/'));
        assertEquals(2, scan.lambdas.size(), "one lambda, one method reference: " + scan.lambdas);
    }

    /** A class the scan must object to. */
    static final class WithLambdas {
        final LongSupplier lambda = () -> 42L;
        final LongSupplier reference = System::nanoTime;
    }

    private static final class Scan {
        final Set<String> reached = new TreeSet<>();
        final List<String> lambdas = new ArrayList<>();

        /** Reads {@code root} and every class it references whose name starts with {@code follow}, transitively. */
        static Scan from(Class<?> root, String follow) throws IOException {
            Scan scan = new Scan();
            Deque<String> queue = new ArrayDeque<>();
            queue.add(root.getName().replace('.', '/'));
            while (!queue.isEmpty()) {
                String name = queue.poll();
                if (!scan.reached.add(name)) {
                    continue;
                }
                for (String referenced : scan.read(name)) {
                    if (referenced.startsWith(follow) && !scan.reached.contains(referenced)) {
                        queue.add(referenced);
                    }
                }
            }
            return scan;
        }

        /** The classes {@code name} refers to; records its lambda call sites. */
        private Set<String> read(String name) throws IOException {
            Set<String> referenced = new TreeSet<>();
            try (InputStream in = StartUpPathTest.class.getClassLoader().getResourceAsStream(name + ".class")) {
                if (in == null) {
                    throw new IOException("no class file for " + name + " on the test class path");
                }
                ClassVisitor lambdaFinder = new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(int access, String method, String descriptor, String signature, String[] exceptions) {
                        return new MethodVisitor(Opcodes.ASM9) {
                            @Override
                            public void visitInvokeDynamicInsn(String indyName, String indyDescriptor, Handle bootstrap, Object... arguments) {
                                if (bootstrap.getOwner().equals(LAMBDA_METAFACTORY)) {
                                    lambdas.add(name.replace('/', '.') + "." + method);
                                }
                            }
                        };
                    }
                };
                Remapper recorder = new Remapper(Opcodes.ASM9) {
                    @Override
                    public String map(String internalName) {
                        referenced.add(internalName);
                        return internalName;
                    }
                };
                new ClassReader(in).accept(new ClassRemapper(lambdaFinder, recorder), 0);
            }
            return referenced;
        }
    }
}
