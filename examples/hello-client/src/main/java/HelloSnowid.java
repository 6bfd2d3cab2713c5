import dev.snowid.client.SnowidClient;

public class HelloSnowid {
    public static void main(String[] args) {
        try (SnowidClient ids = SnowidClient.builder()
                .leaseUrl(System.getenv().getOrDefault("SNOWID_LEASE_URL", "http://localhost:8080")) // the local runner
                .secret(() -> System.getenv("SNOWID_LEASE_SECRET")) // the runner's secret
                .build()) {                                          // leases a slot now
            System.out.println(ids.nextId());
        }                                                            // close() releases the slot
    }
}
