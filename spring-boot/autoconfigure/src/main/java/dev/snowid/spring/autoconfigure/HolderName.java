package dev.snowid.spring.autoconfigure;

import dev.snowid.protocol.HolderLabel;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.springframework.core.env.Environment;

/**
 * The default holder label: the application's name and the host it runs on, e.g.
 * {@code orders-api@ip-10-0-1-17}, made to pass the lease API's rule ({@link HolderLabel}).
 */
final class HolderName {

    private HolderName() {
    }

    static String of(Environment environment) {
        String application = environment.getProperty("spring.application.name", "application");
        return HolderLabel.of(application + "@" + hostName());
    }

    private static String hostName() {
        String fromEnvironment = System.getenv("HOSTNAME"); // a container's name, without a lookup
        if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
            return fromEnvironment;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
