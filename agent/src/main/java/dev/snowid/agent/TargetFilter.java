package dev.snowid.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The agent's only cost for classes that are not targets: one hash lookup of the class name per
 * class load. Byte Buddy (a few hundred classes to load and verify) is set up only when the first
 * target class shows up, so the JVM's start-up does not pay for it unless a target is loaded.
 */
final class TargetFilter implements ClassFileTransformer {

    private final Set<String> internalNames = new HashSet<>();
    private final Supplier<ClassFileTransformer> redirector;
    private volatile ClassFileTransformer byteBuddy;

    TargetFilter(List<Target> targets, Supplier<ClassFileTransformer> redirector) {
        for (Target target : targets) {
            internalNames.add(target.className().replace('.', '/'));
        }
        this.redirector = redirector;
    }

    boolean isTarget(Class<?> type) {
        return internalNames.contains(type.getName().replace('.', '/'));
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classFile) throws IllegalClassFormatException {
        if (className == null || !internalNames.contains(className)) {
            return null;
        }
        return byteBuddy().transform(loader, className, classBeingRedefined, protectionDomain, classFile);
    }

    private ClassFileTransformer byteBuddy() {
        ClassFileTransformer transformer = byteBuddy;
        if (transformer == null) {
            synchronized (this) {
                transformer = byteBuddy;
                if (transformer == null) {
                    transformer = redirector.get();
                    byteBuddy = transformer;
                }
            }
        }
        return transformer;
    }
}
