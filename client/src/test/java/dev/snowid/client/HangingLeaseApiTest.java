package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lease API that accepts the renewal's connection and never answers (a real socket, held open):
 * the renewer waits on it, the application's threads do not. Once the window has ended they fail
 * at once, for as long as the renewal hangs (its read timeout is 10 s).
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class HangingLeaseApiTest {

    private static final long LEASE_MILLIS = 5_000;

    private final AtomicLong clockOffset = new AtomicLong();
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private ServerSocket server;
    private SnowidClient client;

    @AfterEach
    void stop() throws IOException {
        for (Socket socket : held) {
            socket.close(); // the hanging renewal fails now, so close() needs no read timeout
        }
        if (server != null) {
            server.close();
        }
        if (client != null) {
            client.close();
        }
    }

    @Test
    void callersFailWithinMillisecondsOfTheWindowsEndWhileTheRenewalHangs() throws Exception {
        long grantedAt = System.currentTimeMillis();
        long expiresAt = grantedAt + LEASE_MILLIS;
        serveTheLeaseThenHang(grantedAt, expiresAt);
        client = SnowidClient.builder()
                .leaseUrl("http://127.0.0.1:" + server.getLocalPort())
                .secret("hanging-1582ba5e611a7f6d6e795391c9392c529d5fc3b5a364b2c1c44e320acdaef509")
                .clock(() -> System.currentTimeMillis() + clockOffset.get())
                .log(ClientLogs.SILENT)
                .build();
        assertTrue(SnowflakeCodec.TWITTER.decode(client.nextId()).unixMillis() < expiresAt);

        clockOffset.set(3_000); // less than half the lease left: the renewer renews, and the API hangs
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (requests.size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(2, requests.size(), "the renewer's PUT reached the API: " + requests);
        assertTrue(requests.get(1).startsWith("PUT /leases/"), requests.toString());
        clockOffset.set(expiresAt - System.currentTimeMillis()); // the window ends now

        AtomicLong slowestNanos = new AtomicLong();
        AtomicReference<Throwable> wrong = new AtomicReference<>();
        List<Thread> callers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread caller = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    long started = System.nanoTime();
                    try {
                        long id = client.nextId();
                        wrong.compareAndSet(null, new AssertionError("ID " + id + " issued past the window"));
                    } catch (IdUnavailableException refused) {
                        if (!refused.getMessage().contains("in progress")) {
                            wrong.compareAndSet(null, refused);
                        }
                    } catch (Throwable other) {
                        wrong.compareAndSet(null, other);
                    }
                    slowestNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
                }
            }, "application-" + t);
            caller.start();
            callers.add(caller);
        }
        for (Thread caller : callers) {
            caller.join(60_000);
            assertFalse(caller.isAlive(), caller.getName() + " still waits after 60 s: a call hangs on the lease API");
        }
        assertNull(wrong.get());
        long slowestMillis = slowestNanos.get() / 1_000_000;
        System.out.printf("hanging lease API: 4000 calls past the window, slowest refusal %d ms%n", slowestMillis);
        // Queued behind the renewer they would take up to its 10 s read timeout; a loaded machine may
        // delay a thread for a moment, hence the margin.
        assertTrue(slowestMillis < 1_000, "the slowest refusal took " + slowestMillis + " ms while the renewal hung");
        assertEquals(2, requests.size(), "callers never called the API: " + requests);
    }

    /** Answers the first request (POST /leases) with a lease; accepts every later connection, reads it and never answers. */
    private void serveTheLeaseThenHang(long floor, long expiresAt) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    held.add(socket);
                    requests.add(readRequestLine(socket.getInputStream()));
                    if (requests.size() == 1) {
                        String lease = "{\"slot\":289,\"datacenter\":9,\"machine\":1,\"owner\":\"00112233445566778899aabbccddeeff\","
                                + "\"fence\":1,\"floor\":" + floor + ",\"expiresAt\":" + expiresAt + ",\"epoch\":1288834974657}";
                        byte[] body = lease.getBytes(StandardCharsets.UTF_8);
                        OutputStream out = socket.getOutputStream();
                        out.write(("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(body);
                        out.flush();
                        socket.close();
                    }
                } catch (IOException closed) {
                    return;
                }
            }
        }, "hanging-lease-api");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Reads a request's head and body (Content-Length); returns "METHOD /path". */
    private static String readRequestLine(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed inside the request head");
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString("US-ASCII");
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                int length = Integer.parseInt(line.substring("content-length:".length()).trim());
                for (int i = 0; i < length; i++) {
                    in.read();
                }
            }
        }
        String[] requestLine = text.substring(0, text.indexOf("\r\n")).split(" ");
        return requestLine[0] + " " + requestLine[1];
    }

}
