import dev.snowid.cdk.SnowidService;
import dev.snowid.cdk.SnowidServiceProps;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;

/** The orders service's stack: snowid next to the orders function, which leases with IAM. */
public class OrdersApp {

    public static void main(String[] args) {
        // Where the cdk CLI says, else cdk.out: synthesized without the CLI too (mvn -q package exec:java).
        App app = App.Builder.create().outdir(System.getenv().getOrDefault("CDK_OUTDIR", "cdk.out")).build();
        // The cdk CLI sets it from your credentials; the lease principal below names the account.
        String account = System.getenv("CDK_DEFAULT_ACCOUNT");
        if (account == null) {
            throw new IllegalStateException("set CDK_DEFAULT_ACCOUNT (cdk synth and cdk deploy set it from your credentials)");
        }
        Stack stack = new Stack(app, "Orders", StackProps.builder()
                .env(Environment.builder().account(account).region(System.getenv("CDK_DEFAULT_REGION")).build()).build());

        // Named, so that snowid's lease principals can list it before it exists.
        Role ordersRole = Role.Builder.create(stack, "OrdersRole").roleName("orders-function")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com")).build();
        SnowidService snowid = new SnowidService(stack, "Snowid", SnowidServiceProps.builder()
                .datacenters("0-3")
                .leaseAuth(SnowidServiceProps.LeaseAuth.AWS_IAM)
                .leasePrincipals(List.of("arn:aws:iam::" + account + ":role/orders-function"))
                .build());
        snowid.grantLeases(ordersRole);

        Function orders = Function.Builder.create(stack, "OrdersFunction")
                .runtime(Runtime.JAVA_21).handler("OrdersFunction::handleRequest")
                .code(Code.fromAsset("target/orders.jar")).role(ordersRole)
                .environment(Map.of("SNOWID_LEASE_URL", snowid.getLeaseUrl()))
                .build();
        CfnOutput.Builder.create(stack, "OrdersFunctionName").value(orders.getFunctionName()).build();
        app.synth();
    }
}
