package dev.snowid.protocol;

import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;

/**
 * The one rule for a base URL snowid calls (the lease API's, a DynamoDB endpoint): http or https,
 * with a host, and no query or fragment (routes are appended to it). Messages say what is wrong
 * ("uses 'ftp': only https …"); the caller puts the setting's name and the URL as typed before it.
 */
public final class HttpUrl {

    private HttpUrl() {
    }

    /** @throws IllegalArgumentException saying what is wrong with {@code typed} */
    public static URL parse(String typed) {
        URL url;
        try {
            url = new URL(typed);
            url.toURI(); // URL alone lets spaces and other characters a request line cannot carry through
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("is not a URL (" + e.getMessage() + ")");
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("is not a URL (" + e.getReason() + ")");
        }
        return check(url);
    }

    /** @throws IllegalArgumentException saying what is wrong with {@code url} */
    public static URL check(URL url) {
        String protocol = url.getProtocol();
        if (!protocol.equals("https") && !protocol.equals("http")) {
            throw new IllegalArgumentException("uses '" + protocol + "': only https (or http for a local runner) is allowed");
        }
        if (url.getHost() == null || url.getHost().isEmpty() || url.getQuery() != null || url.getRef() != null) {
            throw new IllegalArgumentException("needs a host and no query or fragment: give the base URL only");
        }
        return url;
    }

    /** Whether {@code url} stays on this machine, where plain http exposes nothing. */
    public static boolean isLoopback(URL url) {
        String host = url.getHost();
        return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
    }
}
