package dev.snowid.agent.instrument;

import dev.snowid.agent.config.Target;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;

/**
 * The agent's class file transformer. For a class that is neither a target nor of a generator
 * family a preset covers, its whole cost is a hash lookup of the class name or two; a target
 * class is read and rewritten by {@link BodyReplacer} with the ASM that Byte Buddy carries
 * (relocated), touching only the target methods.
 */
public final class TargetTransformer implements ClassFileTransformer {

    private final Map<String, List<Target>> targetsByClass = new HashMap<>();
    /** The target classes' binary names, as {@link Class#getName()} gives them: no conversion per loaded class. */
    private final Set<String> classNames = new HashSet<>();
    private final Map<Target, Integer> indexes = new HashMap<>();
    private final PresetCoverage coverage;
    private final TargetReport report;

    public TargetTransformer(List<Target> targets, PresetCoverage coverage, TargetReport report) {
        for (int i = 0; i < targets.size(); i++) {
            Target target = targets.get(i);
            indexes.put(target, i);
            classNames.add(target.className());
            String internalName = target.className().replace('.', '/');
            List<Target> ofClass = targetsByClass.get(internalName);
            if (ofClass == null) {
                ofClass = new ArrayList<>();
                targetsByClass.put(internalName, ofClass);
            }
            ofClass.add(target);
        }
        this.coverage = coverage;
        this.report = report;
    }

    public boolean isTarget(Class<?> type) {
        return isTargetClass(type.getName());
    }

    /** Whether the class of this binary name ({@code com.acme.Ids}) declares targets. */
    public boolean isTargetClass(String binaryName) {
        return classNames.contains(binaryName);
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classFile) {
        if (className == null) {
            return null;
        }
        coverage.loaded(className);
        List<Target> targets = targetsByClass.get(className);
        if (targets == null) {
            return null;
        }
        try {
            ClassReader reader = new ClassReader(classFile);
            // Passing the reader lets every method that is not a target be copied as it is.
            ClassWriter writer = new ClassWriter(reader, 0);
            BodyReplacer replacer = new BodyReplacer(writer, targets, indexes, TargetReport.describe(loader));
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
