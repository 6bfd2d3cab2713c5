package dev.snowid.agent;

import net.bytebuddy.jar.asm.Opcodes;

/** The return types a redirected method may have, each with the bridge method that fills it. */
enum ReturnKind {
    LONG("J", "nextId", Opcodes.LRETURN, 2),
    BOXED_LONG("Ljava/lang/Long;", "nextIdBoxed", Opcodes.ARETURN, 1),
    STRING("Ljava/lang/String;", "nextIdString", Opcodes.ARETURN, 1);

    static final String ALLOWED = "long, java.lang.Long or java.lang.String";

    final String descriptor;
    final String bridgeMethod;
    final int returnOpcode;
    final int stackSize;

    ReturnKind(String descriptor, String bridgeMethod, int returnOpcode, int stackSize) {
        this.descriptor = descriptor;
        this.bridgeMethod = bridgeMethod;
        this.returnOpcode = returnOpcode;
        this.stackSize = stackSize;
    }

    /** The kind for a return type descriptor, or null when snowid cannot fill it. */
    static ReturnKind of(String returnDescriptor) {
        for (ReturnKind kind : values()) {
            if (kind.descriptor.equals(returnDescriptor)) {
                return kind;
            }
        }
        return null;
    }

    String bridgeDescriptor() {
        return "()" + descriptor;
    }
}
