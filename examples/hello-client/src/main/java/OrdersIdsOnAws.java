import dev.snowid.client.SnowidClient;

public final class OrdersIdsOnAws {
    /** The one client of this JVM: share it, it is thread-safe. */
    static SnowidClient connect(String hostname) {
        return SnowidClient.builder()
                .leaseUrl("https://abc123.execute-api.eu-west-1.amazonaws.com") // the template's LeaseUrl output
                .awsIam()                                                    // SigV4 for execute-api, region from the host
                .holder("orders-service " + hostname)                        // optional, shown to operators
                .build();                                                    // leases a slot now
    }
}
