import dev.snowid.client.ClientStats;
import dev.snowid.client.SnowidClient;
import java.net.InetAddress;
import java.net.UnknownHostException;

public class OrdersIds {
    public static void main(String[] args) throws UnknownHostException {
        String hostname = InetAddress.getLocalHost().getHostName();
        SnowidClient ids = SnowidClient.builder()
                .leaseUrl(System.getenv().getOrDefault("SNOWID_LEASE_URL", "http://localhost:8080")) // on AWS: the stack's LeaseUrl
                .secret(() -> System.getenv("SNOWID_LEASE_SECRET"))  // asked on every call: rotation works
                .holder("orders-service " + hostname)                // optional, shown to operators
                .build();                                            // leases a slot now
        long id = ids.nextId();
        long[] batch = ids.nextIds(100);
        ClientStats stats = ids.stats();
        System.out.println(id + " and " + batch.length + " more; " + stats);
        ids.close();                                                 // releases the slot
    }
}
