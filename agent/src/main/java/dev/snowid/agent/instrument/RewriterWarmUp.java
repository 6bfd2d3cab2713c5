package dev.snowid.agent.instrument;

import dev.snowid.agent.config.Target;
import net.bytebuddy.jar.asm.ClassReader;

/**
 * Loads the class file rewriter (ASM and the agent's use of it, some 250 KB of classes) on a daemon
 * thread while the application starts, as Spring Boot's background pre-initializer does with its
 * own: the first target class to load would otherwise wait ~15 ms for them, usually on main.
 * Best effort and nothing else: what this loads is loaded the same way the transformer would load
 * it, and a class that cannot load here is left for the transformer to fail on and report.
 */
public final class RewriterWarmUp implements Runnable {

    /** ASM's classes that rewriting a class loads (their verification loads the rest). */
    private static final String[] ASM = {"ClassReader", "ClassWriter", "SymbolTable", "MethodWriter", "FieldWriter",
        "ByteVector", "Label", "Type", "Frame", "Attribute"};

    private RewriterWarmUp() {
    }

    public static void startInBackground() {
        try {
            Thread thread = new Thread(new RewriterWarmUp(), "snowid-warm-up");
            thread.setDaemon(true);
            thread.start();
        } catch (RuntimeException e) {
            // A security manager that forbids threads: the transformer loads the classes itself, as it did before.
        }
    }

    /** Binary names, for the ASM carried in the agent jar (relocated) or on the class path (tests). */
    static String[] classNames() {
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
        ClassLoader loader = RewriterWarmUp.class.getClassLoader();
        for (String name : classNames()) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
                return; // the transformer loads it again when it needs it, and reports what fails then
            }
        }
    }
}
