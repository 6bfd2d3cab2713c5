package dev.snowid.local;

import java.util.Locale;

/**
 * The {@code Host} headers the runner answers: {@code localhost}, {@code 127.0.0.1} or
 * {@code [::1]}, with its port. A web page the browser loaded from elsewhere can point its own
 * name at 127.0.0.1 (DNS rebinding) and read the answers as same-origin; its requests carry
 * that name in {@code Host}, so they are refused.
 */
final class LocalHost {

    private LocalHost() {
    }

    static boolean allowed(String host, int port) {
        if (host == null) {
            return false;
        }
        String name = host.trim().toLowerCase(Locale.ROOT);
        String suffix = ":" + port;
        if (!name.endsWith(suffix)) {
            return false;
        }
        name = name.substring(0, name.length() - suffix.length());
        return name.equals("localhost") || name.equals("127.0.0.1") || name.equals("[::1]");
    }

    static String allowedText(int port) {
        return "localhost:" + port + ", 127.0.0.1:" + port + " or [::1]:" + port;
    }
}
