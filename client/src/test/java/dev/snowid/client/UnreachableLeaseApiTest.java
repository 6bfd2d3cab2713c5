package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lease.LeaseStoreUnavailableException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The first acquisition against a lease API nothing listens for (a port just closed: connections
 * are refused): the warning and the failure carry {@code lease_api_unreachable} and say what to
 * check, the URL and whether the runner or stack is up, instead of only "Connection refused".
 */
class UnreachableLeaseApiTest {

    @Test
    void startUpAgainstAClosedPortSaysWhatToCheckUnderItsCode() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        ClientLogs.Recorded log = new ClientLogs.Recorded();
        SnowidClient.Builder builder = SnowidClient.builder().leaseUrl("http://127.0.0.1:" + closedPort)
                .secret("s0lc0TN3eQAOP8nxmiRoqz8FcJRIDHigLJLs0wz38R4=").startupDeadline(300).log(log);

        LeaseStoreUnavailableException failed = assertThrows(LeaseStoreUnavailableException.class, builder::build);

        String message = failed.getMessage();
        assertTrue(message.startsWith("[lease_api_unreachable] could not connect to the lease API: POST /leases at http://127.0.0.1:"
                + closedPort + " failed: java.net.ConnectException"), message);
        assertTrue(message.contains("Check the lease URL") && message.contains("that the runner (local/scripts/run-local.sh) or the stack"
                + " is up"), message);
        assertEquals(ClientSettings.LEASE_URL, ClientSettings.toFix(failed), "the setting to fix is the URL");
        List<String> said = log.sofar();
        assertEquals(1, said.size(), "said once, not per attempt: " + said);
        assertTrue(said.get(0).startsWith("WARN [lease_api_unreachable] could not connect to the lease API; asking again for up to"),
                said.get(0));
    }
}
