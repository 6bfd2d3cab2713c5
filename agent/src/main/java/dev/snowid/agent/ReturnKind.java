package dev.snowid.agent;

import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;

/** The return types a redirected method may have, each with its advice. */
enum ReturnKind {
    LONG("long", RedirectAdvice.ReturningLong.class),
    BOXED_LONG("java.lang.Long", RedirectAdvice.ReturningBoxedLong.class),
    STRING("java.lang.String", RedirectAdvice.ReturningString.class);

    static final String ALLOWED = "long, java.lang.Long or java.lang.String";

    private final String typeName;
    private final Class<?> adviceClass;
    private volatile Advice advice;

    ReturnKind(String typeName, Class<?> adviceClass) {
        this.typeName = typeName;
        this.adviceClass = adviceClass;
    }

    /** The kind for a method's return type, or null when snowid cannot fill it. */
    static ReturnKind of(TypeDescription returnType) {
        for (ReturnKind kind : values()) {
            if (kind.typeName.equals(returnType.getName())) {
                return kind;
            }
        }
        return null;
    }

    /** Parsed once, on first use: reading an advice class is not free. */
    Advice advice() {
        Advice parsed = advice;
        if (parsed == null) {
            parsed = Advice.to(adviceClass);
            advice = parsed;
        }
        return parsed;
    }

    String typeName() {
        return typeName;
    }
}
