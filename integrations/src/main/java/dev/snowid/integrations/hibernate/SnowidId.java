// [docs:hibernate-annotation]
package dev.snowid.integrations.hibernate;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.hibernate.annotations.IdGeneratorType;

/**
 * Marks a {@code long}/{@code Long} {@code @Id} as drawn from the {@link dev.snowid.client.SnowidClient}
 * in the session factory's setting {@value SnowidIdGenerator#CLIENT_SETTING}:
 * <pre>{@code
 * @Id @SnowidId
 * private Long id;
 * }</pre>
 */
@IdGeneratorType(SnowidIdGenerator.class)
@Retention(RUNTIME)
@Target({FIELD, METHOD})
public @interface SnowidId {
}
// [/docs:hibernate-annotation]
