package dev.snowid.spring.autoconfigure;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.springframework.core.env.Environment;

/** The default holder label: the application's name and the host it runs on, e.g. {@code orders-api@ip-10-0-1-17}. */
final class HolderName {

    static final int MAX_LENGTH = 200;

    private HolderName() {
    }

    static String of(Environment environment) {
        String application = environment.getProperty("spring.application.name", "application");
        String label = application + "@" + hostName();
        return label.length() <= MAX_LENGTH ? label : label.substring(0, MAX_LENGTH);
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
