package dev.snowid.testing.leaseapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.client.LeaseSecretRefusedException;
import dev.snowid.client.SnowidClient;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client with a strong secret that is not the lease API's, against the real runner: its
 * streamed {@code POST /leases} is answered 401, whose body Java's HttpURLConnection drops, and
 * the refusal still carries the API's code and message (from its challenge header).
 */
@ExtendWith(DynamoDbEngine.class)
class ClientRefusedSecretTest {

    @Test
    void aWrongSecretIsRefusedWithTheApisCodeAndMessage(TestTable table) {
        try (LeaseApi api = LeaseApi.start(table, LeaseApi.DATACENTER, 2)) {
            SnowidClient.Builder builder = SnowidClient.builder().leaseUrl(api.url())
                    .secret("s0lc0TN3eQAOP8nxmiRoqz8FcJRIDHigLJLs0wz38R4=").holder("wrong-secret-client");

            LeaseSecretRefusedException refused = assertThrows(LeaseSecretRefusedException.class, builder::build);

            assertEquals(401, refused.status());
            assertEquals(ErrorCode.UNAUTHORIZED, refused.code(), refused::getMessage);
            assertTrue(refused.getMessage().contains("POST /leases at http://")
                    && refused.getMessage().endsWith(": unauthorized: the bearer secret is wrong"), refused::getMessage);
        }
    }
}
