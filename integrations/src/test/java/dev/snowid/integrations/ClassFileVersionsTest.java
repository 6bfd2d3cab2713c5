package dev.snowid.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.integrations.hibernate.SnowidId;
import dev.snowid.integrations.hibernate.SnowidIdGenerator;
import dev.snowid.integrations.mybatisplus.SnowidIdentifierGenerator;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** Each generator runs on the oldest Java its library runs on: one jar, two class file versions. */
class ClassFileVersionsTest {

    private static final int JAVA_8 = 52;
    private static final int JAVA_11 = 55;

    @Test
    void theMyBatisPlusGeneratorIsJava8BytecodeLikeMyBatisPlus() throws IOException {
        assertEquals(JAVA_8, majorVersion(SnowidIdentifierGenerator.class));
    }

    @Test
    void theHibernateGeneratorIsJava11BytecodeLikeHibernateOrm6() throws IOException {
        assertEquals(JAVA_11, majorVersion(SnowidIdGenerator.class));
        assertEquals(JAVA_11, majorVersion(SnowidId.class));
    }

    private static int majorVersion(Class<?> type) throws IOException {
        try (InputStream file = type.getResourceAsStream(type.getSimpleName() + ".class");
             DataInputStream in = new DataInputStream(file)) {
            in.readInt(); // 0xCAFEBABE
            in.readUnsignedShort(); // minor
            return in.readUnsignedShort();
        }
    }
}
