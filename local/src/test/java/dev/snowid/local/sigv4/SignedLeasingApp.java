package dev.snowid.local.sigv4;

import dev.snowid.IdUnavailableException;
import dev.snowid.WallClock;
import dev.snowid.client.ClientStats;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.SnowidClient;
import dev.snowid.client.auth.AwsSigning;
import java.net.URL;

/**
 * A workload in its own JVM, whose environment alone says where its AWS credentials come from:
 * leases through the verifying proxy with {@code awsIam()}, issues IDs for a while (crossing
 * renewals), reads the slot map, and releases. So every lease route (POST, PUT, GET, DELETE) is
 * signed with the credentials the SDK's default chain found.
 *
 * <p>Arguments: the lease URL, the region, how long to run (ms). Its last line is
 * {@code RESULT ids=… renewals=… renewalFailures=… lost=… slotMapHeld=…}.
 */
public final class SignedLeasingApp {

    public static void main(String[] args) throws Exception {
        String leaseUrl = args[0];
        AwsSigning signing = AwsSigning.defaultCredentials().region(args[1]);
        long runMillis = Long.parseLong(args[2]);
        long ids = 0;
        ClientStats stats;
        int held;
        try (SnowidClient client = SnowidClient.builder().leaseUrl(leaseUrl).signing(signing).holder("signed-app").build()) {
            long end = System.currentTimeMillis() + runMillis;
            while (System.currentTimeMillis() < end) {
                try {
                    client.nextId();
                    ids++;
                } catch (IdUnavailableException e) {
                    // counted in the client's refusals; the renewer is at work
                }
                Thread.sleep(20);
            }
            stats = client.stats();
            held = new HttpLeaseSource(new URL(leaseUrl), signing.authorizerFor(new URL(leaseUrl)), "signed-app", WallClock.SYSTEM)
                    .slotMap().leases().size();
        }
        System.out.println("RESULT ids=" + ids + " renewals=" + stats.renewals() + " renewalFailures=" + stats.renewalFailures()
                + " lost=" + stats.leasesLost() + " slotMapHeld=" + held);
    }
}
