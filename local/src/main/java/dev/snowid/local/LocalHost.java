package dev.snowid.local;

import java.util.Locale;

/**
 * The {@code Host} headers the runner answers: {@code localhost}, {@code 127.0.0.1} or
 * {@code [::1]}, with a port. A web page the browser loaded from elsewhere can point its own
 * name at 127.0.0.1 (DNS rebinding) and read the answers as same-origin; its requests carry
 * that name in {@code Host}, so they are refused. The port is not compared with the runner's:
 * it guards nothing against rebinding (the name does), and a loopback proxy or SSH tunnel in
 * front of the runner passes on its own.
 */
final class LocalHost {

    private LocalHost() {
    }

    static boolean allowed(String host) {
        if (host == null) {
            return false;
        }
        String name = host.trim().toLowerCase(Locale.ROOT);
        int colon = name.lastIndexOf(':');
        if (colon < 0 || colon == name.length() - 1 || !name.substring(colon + 1).chars().allMatch(Character::isDigit)
                || name.length() - colon - 1 > 5) {
            return false;
        }
        name = name.substring(0, colon);
        return name.equals("localhost") || name.equals("127.0.0.1") || name.equals("[::1]");
    }

    static String allowedText() {
        return "localhost:<port>, 127.0.0.1:<port> or [::1]:<port>";
    }
}
