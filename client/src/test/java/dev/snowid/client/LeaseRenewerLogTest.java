package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import org.junit.jupiter.api.Test;

/** What the renewer says when a renewal fails, each under its code (docs/troubleshooting.md). */
class LeaseRenewerLogTest {

    @Test
    void aFailedRenewalIsAWarningThatTheApiFailed() throws Exception {
        String line = firstLineAfterARenewalThatThrows(new LeaseStoreUnavailableException("the table did not answer", 1, null));
        assertTrue(line.startsWith("WARN [lease_api_failed] the lease API failed; retrying") && line.endsWith("the table did not answer"),
                line);
    }

    @Test
    void aLostLeaseIsAnErrorUnderTheApisCodeForIt() throws Exception {
        String line = firstLineAfterARenewalThatThrows(new LeaseLostException("the slot is no longer ours (HTTP 409): taken"));
        assertTrue(line.startsWith("ERROR [lease_lost] the lease was lost; no ID is issued until a new one is taken: the slot"), line);
    }

    @Test
    void aClockTooFarFromTheApisIsAnErrorUnderTheApisCodeForIt() throws Exception {
        String line = firstLineAfterARenewalThatThrows(new ClockSkewException("this clock is 5000 ms ahead of the lease API's", 5_000));
        assertTrue(line.startsWith("ERROR [clock_skew] refusing to lease: this clock is 5000 ms ahead"), line);
    }

    private static String firstLineAfterARenewalThatThrows(RuntimeException failure) throws InterruptedException {
        // The shortest lease: a renewal is due once a quarter of it (1.25 s) has passed since the lease was taken.
        LeaseTerms terms = LeaseTerms.of(LeaseTerms.MIN_LEASE_MILLIS, 0);
        long now = System.currentTimeMillis();
        Lease held = new Lease(Slot.of(1, 2), "00112233445566778899aabbccddeeff", 1, LeaseWindow.of(now - 2_000, now + 3_000));
        LeaseSource api = new LeaseSource() {
            @Override
            public Lease acquire() {
                throw new IdUnavailableException("the test's API leases nothing more", 60_000);
            }

            @Override
            public Lease renew(Lease lease) {
                throw failure;
            }

            @Override
            public void release(Lease lease, long lastIssuedMillis) {
            }
        };
        LeasedGenerator generator = LeasedGenerator.builder(api, terms, WallClock.SYSTEM, SnowflakeCodec.TWITTER)
                .renewInBackground().startingWith(held).build();
        ClientLogs.Recorded log = new ClientLogs.Recorded();
        LeaseRenewer renewer = new LeaseRenewer(generator, terms.leaseMillis(), log);
        renewer.start();
        try {
            return log.next();
        } finally {
            renewer.stop();
        }
    }
}
