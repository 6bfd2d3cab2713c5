package dev.snowid.client.auth;

import dev.snowid.client.SnowidClient;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Run by {@link AwsSigningTest} in a JVM without the AWS SDK: what each mode does there. */
public final class NoSdkApp {

    public static void main(String[] args) throws Exception {
        boolean noSdk;
        try {
            Class.forName("software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner");
            noSdk = false;
        } catch (ClassNotFoundException e) {
            noSdk = true;
        }
        System.out.println("no SDK: " + noSdk);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + closedPort;
        try {
            SnowidClient.builder().leaseUrl(url).secret("no-sdk-542297cce515cca6507f9768567da540bec5c87b9365c92be4cbf74598bfbe71").startupDeadline(0).build().close();
            System.out.println("bearer: built");
        } catch (RuntimeException | LinkageError e) {
            System.out.println("bearer: " + e.getClass().getName() + ": " + e.getMessage());
        }
        try {
            SnowidClient.builder().leaseUrl(url).signing(AwsSigning.defaultCredentials().region("eu-west-1")).build().close();
            System.out.println("iam: built");
        } catch (RuntimeException | LinkageError e) {
            System.out.println("iam: " + e.getClass().getName() + ": " + e.getMessage());
        }
    }
}
