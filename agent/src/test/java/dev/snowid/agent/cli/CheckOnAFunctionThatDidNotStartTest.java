package dev.snowid.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.protocol.CannedLeaseApi;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A function that refuses its settings at init (an entry of {@code SNOWID_LEASE_PRINCIPALS}, say)
 * never answers: API Gateway answers every request for it with its own
 * {@code 500 {"message":"Internal Server Error"}}. {@code check} fails at its first step, saying
 * that the function did not start and where its reason is logged.
 */
class CheckOnAFunctionThatDidNotStartTest {

    private final CannedLeaseApi api = CannedLeaseApi.start();

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void theLeaseStepSaysTheFunctionDidNotStartAndWhereItsLogIs() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        Map<String, String> env = new HashMap<>();
        env.put(CliSettings.SECRET_VARIABLE, "mQ3vR8xT2bN7kW4pZ9sD1fG6hJ0lC5yE+aUoVi/IrPc=");
        env.put(CliSettings.STARTUP_DEADLINE_VARIABLE, "1500"); // a 500 settles nothing: asked again, briefly
        int status = CheckCommand.run(new String[] {api.url(CannedLeaseApi.Answer.GATEWAY_ERROR)}, env,
                new PrintStream(out, true, "UTF-8"), new PrintStream(err, true, "UTF-8"));

        String printed = out.toString("UTF-8");
        assertEquals(1, status, printed + err);
        assertTrue(printed.contains("FAIL lease ") && printed.contains("HTTP 500"), printed);
        assertTrue(printed.contains("did not start") && printed.contains("SNOWID_LEASE_PRINCIPALS")
                && printed.contains("aws logs tail /snowid/<stack>/function"), printed);
    }
}
