package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.lease.RequestIdConflictException;
import dev.snowid.protocol.LeaseFields;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A lease request whose answer is lost: the server reads the whole request, then closes the
 * connection without a word, as a proxy reset or a timeout would. On a plain socket server, so
 * that every request that reaches it is counted, resent ones too.
 */
class LostAnswerTest {

    private static final String LEASE = "{\"slot\":289,\"datacenter\":9,\"machine\":1,\"owner\":\"00112233445566778899aabbccddeeff\","
            + "\"fence\":4,\"floor\":1700000000000,\"expiresAt\":1700000058000,\"epoch\":1288834974657}";
    private static final Lease OURS = new Lease(Slot.of(9, 1), "00112233445566778899aabbccddeeff", 4,
            LeaseWindow.of(1_700_000_000_000L, 1_700_000_060_000L));

    private final List<String> requests = new CopyOnWriteArrayList<>();
    /** Queued for a request whose answer is lost: the connection is dropped after reading it. */
    private static final String DROP = "(drop)";
    /** The answer to the next request, as raw HTTP; none queued (or {@link #DROP}): the connection is dropped after reading the request. */
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private ServerSocket server;
    private Thread accepting;

    @AfterEach
    void stop() throws Exception {
        server.close();
        accepting.join(5_000);
    }

    private HttpLeaseSource api() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        accepting = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket connection = server.accept()) {
                    connection.setSoTimeout(5_000);
                    requests.add(readRequest(connection.getInputStream()));
                    String answer = answers.poll();
                    if (answer != null && !answer.equals(DROP)) {
                        OutputStream out = connection.getOutputStream();
                        out.write(answer.getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                } catch (IOException closedOrBroken) {
                    // the server closed, or a client gave up: the next accept tells which
                }
            }
        }, "lost-answer-server");
        accepting.setDaemon(true);
        accepting.start();
        return new HttpLeaseSource(new URL("http://127.0.0.1:" + server.getLocalPort()), () -> "s", "test");
    }

    /** "METHOD path body", read up to the end of the body its Content-Length announces. */
    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString("ISO-8859-1").endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the request ended early");
            }
            head.write(b);
        }
        String[] lines = head.toString("ISO-8859-1").split("\r\n");
        int length = 0;
        for (String line : lines) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        byte[] body = new byte[length];
        for (int read = 0; read < length; ) {
            int n = in.read(body, read, length - read);
            if (n < 0) {
                throw new IOException("the body ended early");
            }
            read += n;
        }
        String[] requestLine = lines[0].split(" ");
        return requestLine[0] + " " + requestLine[1] + " " + new String(body, StandardCharsets.UTF_8);
    }

    private static String answer(int status, String reason, String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                + "\r\nConnection: close\r\n\r\n" + json;
    }

    @Test
    void aLeaseRequestWhoseAnswerIsLostIsSentOnceNeverResentByTheJdk() throws Exception {
        HttpLeaseSource api = api();
        Executable[] calls = {api::acquire, () -> api.renew(OURS), () -> api.release(OURS, 0)};
        for (Executable call : calls) {
            requests.clear();
            assertThrows(LeaseStoreUnavailableException.class, call);
            assertEquals(1, requests.size(), "one request reached the server, not a resend: " + requests);
        }
    }

    @Test
    void aRetriedAcquisitionSendsTheSameRequestIdAndANewAcquisitionANewOne() throws Exception {
        HttpLeaseSource api = api();
        assertThrows(LeaseStoreUnavailableException.class, api::acquire); // no answer queued: dropped, maybe granted
        answers.add(answer(201, "Created", LEASE));
        Lease lease = api.acquire();
        assertEquals(OURS.slot(), lease.slot());
        answers.add(answer(503, "Service Unavailable", "{\"error\":\"no_free_slot\",\"message\":\"all held\"}"));
        assertThrows(NoFreeSlotException.class, api::acquire);
        answers.add(answer(503, "Service Unavailable", "{\"error\":\"no_free_slot\",\"message\":\"all held\"}"));
        assertThrows(NoFreeSlotException.class, api::acquire);

        assertEquals(4, requests.size(), requests::toString);
        String first = requestId(requests.get(0));
        assertTrue(first.matches("[0-9a-f]{32}"), first);
        assertEquals(first, requestId(requests.get(1)), "the retry of a lost answer is the same acquisition");
        assertNotEquals(first, requestId(requests.get(2)), "once answered, the next acquisition is a new one");
        assertNotEquals(requestId(requests.get(2)), requestId(requests.get(3)), "a refusal is an answer too");
    }

    @Test
    void aRequestIdRefusedAsAnotherCallersIsNeverSentAgain() throws Exception {
        HttpLeaseSource api = api();
        assertThrows(LeaseStoreUnavailableException.class, api::acquire); // dropped: the next acquisition is its retry
        answers.add(answer(409, "Conflict", "{\"error\":\"request_id_conflict\",\"message\":\"first sent by another caller\"}"));
        RequestIdConflictException refused = assertThrows(RequestIdConflictException.class, api::acquire);
        assertTrue(refused.getMessage().contains("first sent by another caller"), refused.getMessage());
        answers.add(answer(201, "Created", LEASE));
        api.acquire();

        assertEquals(requestId(requests.get(0)), requestId(requests.get(1)), "the retry of the dropped acquisition");
        assertNotEquals(requestId(requests.get(1)), requestId(requests.get(2)), "a refused id is burnt: the next acquisition draws anew");
    }

    @Test
    void startUpAsksAgainWithTheSameRequestIdUntilTheApiSettlesTheAcquisition() throws Exception {
        HttpLeaseSource api = api();
        answers.add(DROP); // the first answer is lost; then two that settle nothing; then the lease
        answers.add(answer(503, "Service Unavailable", "{\"error\":\"store_unavailable\",\"message\":\"down\"}"));
        answers.add(answer(502, "Bad Gateway", "<html><body>Bad Gateway</body></html>"));
        // Its own original won the race for the request id: asking again with that id gets the original's lease.
        answers.add(answer(503, "Service Unavailable", "{\"error\":\"acquisition_superseded\",\"message\":\"raced\"}"));
        answers.add(answer(201, "Created", LEASE));
        Lease lease = FirstLease.acquire(api, 10_000, 0, ClientLogs.SILENT);

        assertEquals(OURS.slot(), lease.slot());
        assertEquals(5, requests.size(), requests::toString);
        for (String request : requests) {
            assertEquals(requestId(requests.get(0)), requestId(request), "one acquisition, asked five times: " + requests);
        }
    }

    @Test
    void anAnswerThatSettlesTheAcquisitionFailsStartUpAtOnce() throws Exception {
        HttpLeaseSource api = api();
        String[] settled = {
            answer(400, "Bad Request", "{\"error\":\"invalid_body\",\"message\":\"holder is too long\"}"),
            answer(401, "Unauthorized", "{\"error\":\"unauthorized\",\"message\":\"wrong secret\"}"),
            answer(403, "Forbidden", "{\"error\":\"forbidden\",\"message\":\"caller not listed\"}"),
            answer(403, "Forbidden", "{\"message\":\"The request signature we calculated does not match\"}"),
            answer(404, "Not Found", "{\"error\":\"not_found\",\"message\":\"no such route\"}"),
            answer(409, "Conflict", "{\"error\":\"request_id_conflict\",\"message\":\"another caller's request id\"}"),
            answer(503, "Service Unavailable", "{\"error\":\"clock_skew\",\"message\":\"the function's clock\"}"),
            answer(503, "Service Unavailable", "{\"error\":\"no_free_slot\",\"message\":\"all held\"}"),
            answer(503, "Service Unavailable", "{\"error\":\"region_not_claimed\",\"message\":\"a refusal this version does not know\"}"),
        };
        for (String answer : settled) {
            requests.clear();
            answers.add(answer);
            RuntimeException failure = assertThrows(RuntimeException.class, () -> FirstLease.acquire(api, 10_000, 0, ClientLogs.SILENT));
            assertEquals(1, requests.size(), "asked once, failed at once: " + answer);
            assertFalse(failure instanceof UnsettledRequestException, failure.toString());
        }
    }

    @Test
    void withNoAnswerStartUpGivesUpAtTheDeadlineSayingHowOftenItAsked() throws Exception {
        HttpLeaseSource api = api(); // nothing queued: every answer is lost
        long started = System.nanoTime();
        LeaseStoreUnavailableException failure = assertThrows(LeaseStoreUnavailableException.class,
                () -> FirstLease.acquire(api, 1_500, 0, ClientLogs.SILENT));
        long tookMillis = (System.nanoTime() - started) / 1_000_000;

        assertTrue(tookMillis >= 1_500, "asked until the deadline: " + tookMillis + " ms");
        assertTrue(requests.size() >= 2, requests::toString);
        for (String request : requests) {
            assertEquals(requestId(requests.get(0)), requestId(request), "one acquisition: " + requests);
        }
        assertTrue(failure.getMessage().startsWith("POST /leases at http://127.0.0.1:" + server.getLocalPort() + " failed: "),
                failure.getMessage());
        assertTrue(failure.getMessage().endsWith("(asked " + requests.size() + " times with one request id within the start-up"
                + " deadline of 1500 ms)"), failure.getMessage());
        assertTrue(ClientSettings.unanswered(failure), "still read as no answer, for the front ends' messages");

        requests.clear();
        assertThrows(LeaseStoreUnavailableException.class, () -> FirstLease.acquire(api, 0, 0, ClientLogs.SILENT));
        assertEquals(1, requests.size(), "a deadline of 0: one attempt");
    }

    private static String requestId(String request) {
        Matcher id = Pattern.compile("\"" + LeaseFields.REQUEST_ID + "\":\"([^\"]*)\"").matcher(request);
        assertTrue(id.find(), request);
        return id.group(1);
    }
}
