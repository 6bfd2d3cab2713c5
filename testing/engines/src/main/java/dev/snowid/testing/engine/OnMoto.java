package dev.snowid.testing.engine;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.ClassTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class on moto only (e.g. a deployment to moto's CloudFormation), when
 * {@code moto_server} is on PATH. Without it the class does not run, and the run says so
 * plainly; with {@value MotoServer#REQUIRED_VARIABLE}=1 a missing moto fails it. Parameters as
 * with {@link OnEveryEngine}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ClassTemplate
@ExtendWith(EngineInvocations.class)
public @interface OnMoto {
}
