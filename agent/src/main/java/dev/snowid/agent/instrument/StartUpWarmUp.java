package dev.snowid.agent.instrument;

import dev.snowid.agent.config.Target;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;

/**
 * Does on a daemon thread, while the agent and then the application start, the slow first steps of
 * what comes later on theirs, as Spring Boot's background pre-initializer does with its own: the
 * system class loader's first resource lookup (the start-up note's, ~2 ms: it opens the JDK's module
 * image and a reader per module), and loading the class file rewriter (ASM and the agent's use of
 * it, some 250 KB of classes: ~13 ms, else paid by the first target class to load, usually on main).
 * Best effort and nothing else: it changes no state anyone reads, and what fails here is done again,
 * and reported, where it is needed.
 */
public final class StartUpWarmUp implements Runnable {

    /** ASM's classes that rewriting a class loads (their verification loads the rest). */
    private static final String[] ASM = {"ClassReader", "ClassWriter", "SymbolTable", "MethodWriter", "FieldWriter",
        "ByteVector", "Label", "Type", "Frame", "Attribute"};

    private final Set<String> targetClasses = new LinkedHashSet<>();

    private StartUpWarmUp(List<Target> targets) {
        for (Target target : targets) {
            targetClasses.add(target.className());
        }
    }

    public static void startInBackground(List<Target> targets) {
        try {
            Thread thread = new Thread(new StartUpWarmUp(targets), "snowid-warm-up");
            thread.setDaemon(true);
            thread.start();
        } catch (RuntimeException e) {
            // A security manager that forbids threads: each step is done where it is needed, as it was before.
        }
    }

    /** Binary names, for the ASM carried in the agent jar (relocated) or on the class path (tests). */
    static String[] rewriterClasses() {
        String asm = ClassReader.class.getName();
        String asmPackage = asm.substring(0, asm.lastIndexOf('.') + 1);
        String[] names = new String[ASM.length + 3];
        for (int i = 0; i < ASM.length; i++) {
            names[i] = asmPackage + ASM[i];
        }
        names[ASM.length] = BodyReplacer.class.getName() + "$ReplacedBody";
        names[ASM.length + 1] = ReturnKind.class.getName();
        names[ASM.length + 2] = Target.Kind.class.getName();
        return names;
    }

    @Override
    public void run() {
        try {
            for (String className : targetClasses) { // the lookups TargetReport#noteMissingClasses makes next
                ClassLoader.getSystemResource(className.replace('.', '/') + ".class");
            }
            ClassLoader loader = StartUpWarmUp.class.getClassLoader();
            for (String name : rewriterClasses()) {
                Class.forName(name, true, loader);
            }
        } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
            return; // done again where it is needed, and reported there if it fails
        }
    }
}
