package dev.snowid.agent;

import dev.snowid.agent.bootstrap.SnowidBridge;
import net.bytebuddy.asm.Advice;

/**
 * The code inlined into each redirected method, one variant per return type. The enter advice
 * returns {@code true}, which skips the original body; the exit advice then sets the return value
 * from the bridge on the bootstrap class loader (the only class the inlined code may reference,
 * since the target's class loader may see nothing else of the agent). No boxing for {@code long}.
 */
final class RedirectAdvice {

    private RedirectAdvice() {
    }

    static final class ReturningLong {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean skipOriginal() {
            return true;
        }

        @Advice.OnMethodExit
        static void issue(@Advice.Return(readOnly = false) long id) {
            id = SnowidBridge.nextId();
        }
    }

    static final class ReturningBoxedLong {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean skipOriginal() {
            return true;
        }

        @Advice.OnMethodExit
        static void issue(@Advice.Return(readOnly = false) Long id) {
            id = SnowidBridge.nextIdBoxed();
        }
    }

    static final class ReturningString {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean skipOriginal() {
            return true;
        }

        @Advice.OnMethodExit
        static void issue(@Advice.Return(readOnly = false) String id) {
            id = SnowidBridge.nextIdString();
        }
    }
}
