package dev.snowid.agent.instrument;

import dev.snowid.agent.config.Target;

import net.bytebuddy.jar.asm.Opcodes;

/**
 * The values a redirected method can return, each with the bridge method that fills it. Any
 * return type a {@code Long} or a {@code String} is assignable to can be redirected; where the
 * type allows both, the target's kind decides and a {@code Long} is the default.
 */
public enum ReturnKind {
    LONG("nextId", "J", Opcodes.LRETURN, 2),
    BOXED_LONG("nextIdBoxed", "Ljava/lang/Long;", Opcodes.ARETURN, 1),
    STRING("nextIdString", "Ljava/lang/String;", Opcodes.ARETURN, 1);

    static final String ALLOWED = "long, Long, Number, String, CharSequence, or Object, Serializable and Comparable"
            + " (a Long, or a String with the suffix :string)";

    final String bridgeMethod;
    final String valueDescriptor;
    final int returnOpcode;
    /** The target's index (one slot), then the value: a long takes two. */
    final int stackSize;

    ReturnKind(String bridgeMethod, String valueDescriptor, int returnOpcode, int stackSize) {
        this.bridgeMethod = bridgeMethod;
        this.valueDescriptor = valueDescriptor;
        this.returnOpcode = returnOpcode;
        this.stackSize = stackSize;
    }

    /**
     * The kind that fills a method returning {@code returnDescriptor} as the target's kind asks,
     * or null when it cannot ({@link #refusal} says why).
     */
    static ReturnKind of(String returnDescriptor, Target.Kind asked) {
        switch (returnDescriptor) {
            case "J":
                return asked == Target.Kind.STRING ? null : LONG;
            case "Ljava/lang/Long;":
            case "Ljava/lang/Number;":
                return asked == Target.Kind.STRING ? null : BOXED_LONG;
            case "Ljava/lang/String;":
            case "Ljava/lang/CharSequence;":
                return asked == Target.Kind.LONG ? null : STRING;
            case "Ljava/lang/Object;":
            case "Ljava/io/Serializable;":
            case "Ljava/lang/Comparable;":
                return asked == Target.Kind.STRING ? STRING : BOXED_LONG;
            default:
                return null;
        }
    }

    /** Why a method returning {@code typeName} ({@code returnDescriptor}) cannot be filled as asked. */
    static String refusal(String returnDescriptor, String typeName, Target.Kind asked) {
        if (asked != null && of(returnDescriptor, null) != null) {
            return "returns " + typeName + ", which cannot hold " + (asked == Target.Kind.STRING ? "the String" : "the Long")
                    + " that '" + asked.suffix + "' asks for; drop the suffix";
        }
        return "returns " + typeName + "; allowed return types: " + ALLOWED;
    }

    /** The bridge method's descriptor: it takes the target's index, for the per-target counts. */
    String bridgeDescriptor() {
        return "(I)" + valueDescriptor;
    }
}
