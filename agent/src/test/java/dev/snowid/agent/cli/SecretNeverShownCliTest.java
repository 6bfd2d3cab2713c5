package dev.snowid.agent.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.protocol.CannedLeaseApi;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's CLI ({@code check}, {@code leases}) never shows the bearer secret: each command is
 * run with a recognisable secret against an API that refuses, fails, echoes the request or is not
 * there, with the secret misnamed, left over in IAM mode or inside the URL, and everything the
 * commands print is searched for it.
 */
class SecretNeverShownCliTest {

    private static final String MARK = "Sn0wMarkQ7";
    private static final String SECRET = MARK + "6dcdd2ba01fe3e6f0345979db65650d8ea8fb86bfa4bcefd2ccfaac3cb2b63f7";

    private final List<String> printed = new ArrayList<>();
    private final CannedLeaseApi api = CannedLeaseApi.start();

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void neitherCommandPrintsTheSecretOnAnyPath() throws UnsupportedEncodingException {
        String refused = api.url(CannedLeaseApi.Answer.REFUSED);
        List<String> urls = new ArrayList<>(List.of(CannedLeaseApi.nobodyListening(), "https://orders:" + SECRET + "@api.example.org",
                "https://api.example.org/?token=" + SECRET, SECRET));
        for (CannedLeaseApi.Answer answer : CannedLeaseApi.Answer.values()) {
            urls.add(api.url(answer));
        }
        for (String command : new String[] {"check", "leases"}) {
            for (String target : urls) {
                // 1.5 s of start-up retries shows the retry's messages as 10 s would, at a fraction of the time.
                run(command, env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_STARTUPDEADLINE", "1500"), target);
            }
            run(command, env("SNOWID_LEASE_SECRETS", SECRET), refused);
            run(command, env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_TOKEN", SECRET, "SNOWID_LEASE_SECRET_FILE", SECRET),
                    refused);
            run(command, env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_AUTH", "aws_iam"), refused);
            run(command, env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_AUTH", "sometimes"), refused);
            run(command, env("SNOWID_LEASE_SECRET", SECRET), refused, SECRET);
        }
        assertTrue(printed.size() >= 26, "every run was searched: " + printed.size());
        for (String text : printed) {
            assertFalse(text.contains(MARK), "the secret shows in: " + text);
        }
    }

    private void run(String command, Map<String, String> env, String... args) throws UnsupportedEncodingException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = new PrintStream(out, true, "UTF-8");
        PrintStream stderr = new PrintStream(err, true, "UTF-8");
        int status = command.equals("check") ? CheckCommand.run(args, env, stdout, stderr) : LeasesCommand.run(args, env, stdout, stderr);
        printed.add(command + " exit " + status + ":\n" + out.toString("UTF-8") + err.toString("UTF-8"));
        assertTrue(status != 0, command + " " + String.join(" ", args) + " must fail: " + out + err);
    }

    private static Map<String, String> env(String... namesAndValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            env.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return env;
    }
}
