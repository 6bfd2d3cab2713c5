package dev.snowid.testing.engine;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.ClassTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the whole test class once per DynamoDB-compatible engine: the shared engine of
 * {@link DynamoDbEngine} (dynalite unless configured otherwise), then moto when
 * {@code moto_server} is on PATH. Without moto the class runs on the first engine alone and the
 * run says so plainly; with {@value MotoServer#REQUIRED_VARIABLE}=1 a missing moto fails it.
 *
 * <p>A class that races writers on one item declares {@link #racesWriters()}: it then runs only
 * on engines that apply each conditional write atomically, as DynamoDB does, and the run names
 * the engines it left out and why.
 *
 * <p>The class gets its engine's {@link TestTable}s and the engine itself
 * ({@link DynamoDbEngine.Running}) as parameters of its constructor, test methods and
 * {@code @BeforeAll}/{@code @BeforeEach} methods.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ClassTemplate
@ExtendWith(EngineInvocations.class)
public @interface OnEveryEngine {

    /** The class sends concurrent conditional writes to the same item and relies on each being atomic. */
    boolean racesWriters() default false;
}
