package dev.snowid.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A target's syntax, and what a refusal says is allowed (built only when one is refused). */
class TargetTest {

    private static final String ALLOWED = "expected <fully qualified class name>#<method name>[:long|:string],"
            + " e.g. com.acme.Ids#next or com.acme.Ids#next:string, or a preset: [hutool, mybatis-plus]";

    @Test
    void parsesClassMethodAndKind() {
        Target target = Target.parse("com.acme.Ids#next:string", "snowid.targets");
        assertEquals("com.acme.Ids", target.className());
        assertEquals("next", target.methodName());
        assertEquals(Target.Kind.STRING, target.kind());
    }

    @Test
    void eachRefusalSaysWhatIsAllowed() {
        assertEquals("where: 'com.acme.Ids.next' is not a target: " + ALLOWED, refusal("com.acme.Ids.next"));
        assertEquals("where: 'com..Ids#next' is not a target: class name 'com..Ids' is not a fully qualified Java class name; " + ALLOWED,
                refusal("com..Ids#next"));
        assertEquals("where: 'com.acme.Ids#<init>' is not a target: method name '<init>' is not a Java method name"
                + " (constructors cannot be redirected); " + ALLOWED, refusal("com.acme.Ids#<init>"));
    }

    private static String refusal(String text) {
        return assertThrows(AgentConfigurationException.class, () -> Target.parse(text, "where")).getMessage();
    }
}
