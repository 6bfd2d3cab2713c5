package dev.snowid.agent.instrument;

import dev.snowid.agent.bootstrap.SnowidBridge;
import dev.snowid.agent.config.AgentSettings;
import dev.snowid.agent.config.Target;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * Rewrites the target methods of one class so that their whole body is
 * <pre>  return SnowidBridge.nextId(&lt;target index&gt;);   // or nextIdBoxed(…), nextIdString(…)</pre>
 * The original instructions are dropped, so they can never run; annotations, parameters and
 * every other method stay as they were. The call goes to the bridge on the bootstrap class
 * loader, which every class loader can see. Methods that cannot be redirected (a return type
 * no ID fits, no body) are left alone and reported. Compiler bridge methods are skipped without
 * a word: they call the real method, which is redirected.
 */
public final class BodyReplacer extends ClassVisitor {

    static final String BRIDGE = "dev/snowid/agent/bootstrap/SnowidBridge";
    static final int ASM_API = Opcodes.ASM9;

    private final Map<String, Target> targetsByMethod = new LinkedHashMap<>();
    private final Map<Target, Integer> indexes;
    private final String where;
    private final List<Target> seen = new ArrayList<>();
    private final Map<Target, List<String>> redirected = new LinkedHashMap<>();
    private final Map<Target, String> problems = new LinkedHashMap<>();
    private String className;

    /** {@code indexes}: each target's index in the bridge. */
    BodyReplacer(ClassVisitor writer, List<Target> targets, Map<Target, Integer> indexes, String where) {
        super(ASM_API, writer);
        for (Target target : targets) {
            targetsByMethod.put(target.methodName(), target);
        }
        this.indexes = indexes;
        this.where = where;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
        className = name.replace('/', '.');
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor original = super.visitMethod(access, name, descriptor, signature, exceptions);
        Target target = targetsByMethod.get(name);
        if (target == null || (access & Opcodes.ACC_BRIDGE) != 0) {
            return original;
        }
        seen.add(target);
        String method = describe(name, descriptor) + " in " + where;
        Type returnType = Type.getReturnType(descriptor);
        ReturnKind kind = ReturnKind.of(returnType.getDescriptor(), target.kind());
        if (kind == null) {
            problems.put(target, method + " " + ReturnKind.refusal(returnType.getDescriptor(), returnType.getClassName(), target.kind()));
            return original;
        }
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            problems.put(target, method + " has no body to replace (abstract or native); name the class that implements it");
            return original;
        }
        List<String> lines = redirected.get(target);
        if (lines == null) {
            lines = new ArrayList<>();
            redirected.put(target, lines);
        }
        lines.add("redirected " + method + " to the snowid generator" + (target.preset() != null
                ? " (preset " + target.preset().presetName() + ")" : ""));
        return new ReplacedBody(original, kind, indexes.get(target));
    }

    @Override
    public void visitEnd() {
        for (Target target : targetsByMethod.values()) {
            if (!seen.contains(target)) {
                problems.put(target, className + " (in " + where + ") declares no method named '" + target.methodName()
                        + "' (inherited methods are redirected in the class that declares them)");
            }
        }
        super.visitEnd();
    }

    boolean redirectedAny() {
        return !redirected.isEmpty();
    }

    /** Tells the report what was done; call once the class file was written. */
    void reportTo(TargetReport report) {
        for (Map.Entry<Target, String> problem : problems.entrySet()) {
            report.cannotRedirect(problem.getKey(), problem.getValue());
        }
        for (Map.Entry<Target, List<String>> done : redirected.entrySet()) {
            for (String line : done.getValue()) {
                report.redirected(done.getKey(), line);
            }
        }
    }

    private String describe(String name, String descriptor) {
        StringBuilder text = new StringBuilder(simpleName(Type.getReturnType(descriptor))).append(' ')
                .append(className).append('#').append(name).append('(');
        Type[] parameters = Type.getArgumentTypes(descriptor);
        for (int i = 0; i < parameters.length; i++) {
            text.append(i == 0 ? "" : ", ").append(simpleName(parameters[i]));
        }
        return text.append(')').toString();
    }

    private static String simpleName(Type type) {
        String name = type.getClassName();
        return name.substring(name.lastIndexOf('.') + 1);
    }

    /** Writes the new body at the start of the code and drops every original instruction. */
    private static final class ReplacedBody extends MethodVisitor {
        private final ReturnKind kind;
        private final int index;

        ReplacedBody(MethodVisitor writer, ReturnKind kind, int index) {
            super(ASM_API, writer);
            this.kind = kind;
            this.index = index;
        }

        @Override
        public void visitCode() {
            super.visitCode();
            pushIndex();
            super.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, kind.bridgeMethod, kind.bridgeDescriptor(), false);
            super.visitInsn(kind.returnOpcode);
        }

        private void pushIndex() {
            if (index <= 5) {
                super.visitInsn(Opcodes.ICONST_0 + index);
            } else if (index <= Byte.MAX_VALUE) {
                super.visitIntInsn(Opcodes.BIPUSH, index);
            } else {
                super.visitIntInsn(Opcodes.SIPUSH, index); // AgentSettings allows fewer targets than that
            }
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(kind.stackSize, maxLocals); // the locals stay: parameters keep their slots
        }

        // Everything below belongs to the original code and is dropped.
        @Override public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) { }
        @Override public void visitInsn(int opcode) { }
        @Override public void visitIntInsn(int opcode, int operand) { }
        @Override public void visitVarInsn(int opcode, int varIndex) { }
        @Override public void visitTypeInsn(int opcode, String type) { }
        @Override public void visitFieldInsn(int opcode, String owner, String name, String descriptor) { }
        @Override public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) { }
        @Override public void visitInvokeDynamicInsn(String name, String descriptor, net.bytebuddy.jar.asm.Handle handle, Object... arguments) { }
        @Override public void visitJumpInsn(int opcode, net.bytebuddy.jar.asm.Label label) { }
        @Override public void visitLabel(net.bytebuddy.jar.asm.Label label) { }
        @Override public void visitLdcInsn(Object value) { }
        @Override public void visitIincInsn(int varIndex, int increment) { }
        @Override public void visitTableSwitchInsn(int min, int max, net.bytebuddy.jar.asm.Label dflt, net.bytebuddy.jar.asm.Label... labels) { }
        @Override public void visitLookupSwitchInsn(net.bytebuddy.jar.asm.Label dflt, int[] keys, net.bytebuddy.jar.asm.Label[] labels) { }
        @Override public void visitMultiANewArrayInsn(String descriptor, int numDimensions) { }
        @Override public net.bytebuddy.jar.asm.AnnotationVisitor visitInsnAnnotation(int typeRef, net.bytebuddy.jar.asm.TypePath typePath,
                                                                                     String descriptor, boolean visible) {
            return null;
        }
        @Override public void visitTryCatchBlock(net.bytebuddy.jar.asm.Label start, net.bytebuddy.jar.asm.Label end,
                                                 net.bytebuddy.jar.asm.Label handler, String type) { }
        @Override public net.bytebuddy.jar.asm.AnnotationVisitor visitTryCatchAnnotation(int typeRef, net.bytebuddy.jar.asm.TypePath typePath,
                                                                                         String descriptor, boolean visible) {
            return null;
        }
        @Override public void visitLocalVariable(String name, String descriptor, String signature, net.bytebuddy.jar.asm.Label start,
                                                 net.bytebuddy.jar.asm.Label end, int index) { }
        @Override public net.bytebuddy.jar.asm.AnnotationVisitor visitLocalVariableAnnotation(int typeRef, net.bytebuddy.jar.asm.TypePath typePath,
                net.bytebuddy.jar.asm.Label[] start, net.bytebuddy.jar.asm.Label[] end, int[] index, String descriptor, boolean visible) {
            return null;
        }
        @Override public void visitLineNumber(int line, net.bytebuddy.jar.asm.Label start) { }
    }
}
