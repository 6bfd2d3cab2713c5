package dev.snowid.integrations.hibernate;

import dev.snowid.client.SnowidClient;
import java.lang.reflect.Member;
import java.util.EnumSet;
import org.hibernate.HibernateException;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;

/**
 * Hibernate ORM's generator behind {@link SnowidId}: each new entity's ID comes from a
 * {@link SnowidClient} just before its insert, so every ID lies in the client's leased slot and window.
 *
 * <p>Hibernate creates generators itself, so the client cannot be passed to a constructor. It is
 * taken from the session factory's settings under {@value #CLIENT_SETTING} (an object, not a
 * string: e.g. {@code StandardServiceRegistryBuilder.applySetting}, the properties map of
 * {@code Persistence.createEntityManagerFactory}, or Spring Boot's {@code HibernatePropertiesCustomizer}).
 * One client per session factory, no static state. A missing setting stops the session factory's
 * build, naming the setting.
 *
 * <p>Fails closed: when the client cannot issue (lease lost and not re-taken, client closed), the
 * persist fails with the client's {@code IdUnavailableException}; nothing is inserted.
 */
public final class SnowidIdGenerator implements BeforeExecutionGenerator, AnnotationBasedGenerator<SnowidId> {

    /** The setting that holds the {@link SnowidClient} instance. */
    public static final String CLIENT_SETTING = "snowid.client";

    private static final long serialVersionUID = 1L;

    // Generators are Serializable by contract; a client (a lease and a thread) cannot travel.
    private transient SnowidClient ids;

    /** Hibernate ORM 6 calls this one; 7.3 deprecates it for {@link #initialize(SnowidId, GeneratorCreationContext)}. */
    @Override
    public void initialize(SnowidId annotation, Member member, GeneratorCreationContext context) {
        initialize(annotation, context);
    }

    /** Hibernate ORM 7.3+ calls this one. Not marked {@code @Override}: ORM 6's interface does not have it. */
    public void initialize(SnowidId annotation, GeneratorCreationContext context) {
        String property = (context.getPersistentClass() != null ? context.getPersistentClass().getEntityName() + "." : "")
                + context.getProperty().getName();
        Class<?> type = context.getProperty().getType().getReturnedClass();
        if (type != Long.class && type != long.class) {
            throw new HibernateException("@SnowidId on " + property + ": the ID must be a long or Long (a 63-bit Snowflake ID), not "
                    + type.getName());
        }
        Object client = context.getServiceRegistry().requireService(ConfigurationService.class).getSettings().get(CLIENT_SETTING);
        if (!(client instanceof SnowidClient)) {
            throw new HibernateException("@SnowidId on " + property + " needs the setting '" + CLIENT_SETTING
                    + "' to hold the SnowidClient instance to draw IDs from; it is "
                    + (client == null ? "not set" : "a " + client.getClass().getName()));
        }
        this.ids = (SnowidClient) client;
    }

    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue, EventType eventType) {
        return ids.nextId();
    }

    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }
}
