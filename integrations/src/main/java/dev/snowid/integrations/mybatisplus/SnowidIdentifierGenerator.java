package dev.snowid.integrations.mybatisplus;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import dev.snowid.client.SnowidClient;

/**
 * MyBatis-Plus's ID generator for {@code @TableId(type = IdType.ASSIGN_ID)}, drawing from a
 * {@link SnowidClient}: every ID lies in the client's leased slot and window, so no two
 * instances of the application share a worker ID, however many containers run it.
 *
 * <p>Install it once per {@code SqlSessionFactory}: {@code GlobalConfig.setIdentifierGenerator(…)},
 * or with the MyBatis-Plus Spring Boot starter as the application's only {@code IdentifierGenerator}
 * bean. MyBatis-Plus then also routes {@code IdWorker.getId()} to it.
 *
 * <p>Fails closed: when the client cannot issue (lease lost and not re-taken, client closed), the
 * insert fails with the client's {@code IdUnavailableException}; nothing falls back to a local ID.
 *
 * <p>{@code IdType.ASSIGN_UUID} keeps MyBatis-Plus's own {@code nextUUID}: a random UUID needs no
 * slot, so it does not depend on the lease.
 */
public final class SnowidIdentifierGenerator implements IdentifierGenerator {

    private final SnowidClient ids;

    public SnowidIdentifierGenerator(SnowidClient ids) {
        if (ids == null) {
            throw new IllegalArgumentException("ids is null: give the SnowidClient to draw IDs from");
        }
        this.ids = ids;
    }

    @Override
    public Long nextId(Object entity) {
        return ids.nextId();
    }
}
