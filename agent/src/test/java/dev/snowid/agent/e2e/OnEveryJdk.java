package dev.snowid.agent.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A test that runs once per required JDK ({@link Jdk#all()}), its {@link Jdk} as the first parameter. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@MethodSource("dev.snowid.agent.e2e.Jdk#all")
public @interface OnEveryJdk {
}
