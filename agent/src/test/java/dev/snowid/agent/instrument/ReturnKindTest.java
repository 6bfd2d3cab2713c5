package dev.snowid.agent.instrument;

import dev.snowid.agent.config.Target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Which value fills which declared return type, and what the kind suffix changes. */
class ReturnKindTest {

    @Test
    void everyTypeALongOrAStringIsAssignableToIsFilled() {
        assertEquals(ReturnKind.LONG, ReturnKind.of("J", null));
        assertEquals(ReturnKind.BOXED_LONG, ReturnKind.of("Ljava/lang/Long;", null));
        assertEquals(ReturnKind.BOXED_LONG, ReturnKind.of("Ljava/lang/Number;", null));
        assertEquals(ReturnKind.STRING, ReturnKind.of("Ljava/lang/String;", null));
        assertEquals(ReturnKind.STRING, ReturnKind.of("Ljava/lang/CharSequence;", null));
        for (String either : new String[] {"Ljava/lang/Object;", "Ljava/io/Serializable;", "Ljava/lang/Comparable;"}) {
            assertEquals(ReturnKind.BOXED_LONG, ReturnKind.of(either, null), either + ": a Long unless asked otherwise");
            assertEquals(ReturnKind.BOXED_LONG, ReturnKind.of(either, Target.Kind.LONG), either);
            assertEquals(ReturnKind.STRING, ReturnKind.of(either, Target.Kind.STRING), either);
        }
        assertEquals(ReturnKind.LONG, ReturnKind.of("J", Target.Kind.LONG));
    }

    @Test
    void aKindTheTypeCannotHoldAndOtherTypesAreRefused() {
        assertNull(ReturnKind.of("J", Target.Kind.STRING));
        assertNull(ReturnKind.of("Ljava/lang/Number;", Target.Kind.STRING));
        assertNull(ReturnKind.of("Ljava/lang/String;", Target.Kind.LONG));
        assertNull(ReturnKind.of("I", null));
        assertNull(ReturnKind.of("Ljava/util/UUID;", null));
        assertEquals("returns Number, which cannot hold the String that ':string' asks for; drop the suffix",
                ReturnKind.refusal("Ljava/lang/Number;", "java.lang.Number".substring(10), Target.Kind.STRING));
        assertEquals("returns int; allowed return types: " + ReturnKind.ALLOWED, ReturnKind.refusal("I", "int", null));
    }
}
