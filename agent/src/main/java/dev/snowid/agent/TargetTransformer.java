package dev.snowid.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;

/**
 * The agent's class file transformer. For a class that is not a target, its whole cost is one
 * hash lookup of the class name; a target class is read and rewritten by {@link BodyReplacer}
 * with the ASM that Byte Buddy carries (relocated), touching only the target methods.
 */
final class TargetTransformer implements ClassFileTransformer {

    private final Map<String, List<Target>> targetsByClass = new HashMap<>();
    private final TargetReport report;

    TargetTransformer(List<Target> targets, TargetReport report) {
        for (Target target : targets) {
            String internalName = target.className().replace('.', '/');
            List<Target> ofClass = targetsByClass.get(internalName);
            if (ofClass == null) {
                ofClass = new ArrayList<>();
                targetsByClass.put(internalName, ofClass);
            }
            ofClass.add(target);
        }
        this.report = report;
    }

    boolean isTarget(Class<?> type) {
        return targetsByClass.containsKey(type.getName().replace('.', '/'));
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classFile) {
        List<Target> targets = className == null ? null : targetsByClass.get(className);
        if (targets == null) {
            return null;
        }
        try {
            ClassReader reader = new ClassReader(classFile);
            // Passing the reader lets every method that is not a target be copied as it is.
            ClassWriter writer = new ClassWriter(reader, 0);
            BodyReplacer replacer = new BodyReplacer(writer, targets, TargetReport.describe(loader));
            reader.accept(replacer, 0);
            byte[] transformed = writer.toByteArray();
            replacer.reportTo(report);
            return replacer.redirectedAny() ? transformed : null;
        } catch (RuntimeException | LinkageError e) {
            // The JVM would swallow it; say so loudly: this class keeps issuing its legacy IDs.
            report.failed(className.replace('/', '.'), loader, e);
            return null;
        }
    }
}
