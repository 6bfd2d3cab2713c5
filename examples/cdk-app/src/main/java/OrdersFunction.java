import java.util.Map;

/**
 * The orders function, reduced to what the stack wires: where snowid's lease API is. A real one
 * builds a SnowidClient on SNOWID_LEASE_URL that signs with its role (docs/client.md, "Inside AWS: IAM").
 */
public class OrdersFunction {

    public String handleRequest(Map<String, Object> event) {
        return "snowid lease API: " + System.getenv("SNOWID_LEASE_URL");
    }
}
