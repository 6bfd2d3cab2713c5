package dev.snowid.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The warm-up names classes that exist: a renamed one (an ASM upgrade) would silently warm up nothing after it. */
class StartUpWarmUpTest {

    @Test
    void everyRewriterClassItLoadsExists() {
        String[] names = StartUpWarmUp.rewriterClasses();
        for (String name : names) {
            assertDoesNotThrow(() -> Class.forName(name, false, StartUpWarmUp.class.getClassLoader()), name);
        }
        assertTrue(Arrays.asList(names).contains(BodyReplacer.class.getName() + "$ReplacedBody"), Arrays.toString(names));
        assertTrue(Arrays.asList(names).contains("net.bytebuddy.jar.asm.MethodWriter"), Arrays.toString(names));
    }
}
