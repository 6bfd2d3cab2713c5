package dev.snowid.protocol;

import dev.snowid.internal.SecretText;
import dev.snowid.internal.WarningCode;
import java.net.InetAddress;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * The one rule for a base URL snowid calls (the lease API's, a DynamoDB endpoint): http or https,
 * with a host, no user information, and no query or fragment (routes are appended to it).
 * Messages say what is wrong ("uses 'ftp': only https …"); the caller puts the setting's name and
 * the URL before it, as {@link #shown} quotes it.
 */
public final class HttpUrl {

    /** 127.0.0.0/8 written as an address, not a name that starts like one. */
    private static final Pattern LOOPBACK_IPV4 = Pattern.compile("127(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

    private HttpUrl() {
    }

    /** @throws IllegalArgumentException saying what is wrong with {@code typed} */
    public static URL parse(String typed) {
        URL url;
        try {
            url = new URL(typed);
            url.toURI(); // URL alone lets spaces and other characters a request line cannot carry through
        } catch (MalformedURLException e) { // its message quotes the text, which may be anything (a secret given in its place)
            throw new IllegalArgumentException("is not a URL: it needs a scheme and a host, like https://host");
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
        if (url.getUserInfo() != null) {
            throw new IllegalArgumentException("carries user information (user:password@): snowid sends no credentials in a URL;"
                    + " give the bearer secret, or sign with IAM, and the base URL without them");
        }
        return url;
    }

    /**
     * {@code typed} as a message may quote it: its user information and its query or fragment
     * (where a password or a token may be) hidden, the rest as typed; text that is no URL at all
     * (a secret given in its place, say) not at all.
     */
    public static String shown(String typed) {
        return typed != null && typed.contains("://") ? SecretText.withUrlSecretsHidden(typed) : SecretText.HIDDEN + " (not a URL)";
    }

    /**
     * The one rule for where a bearer secret may go: https; plain http to loopback; plain http
     * elsewhere only where the operator opted in (a runner reached by a compose service name, on a
     * network they trust). Requests signed with IAM carry no secret and are not this rule's business.
     *
     * @param named           the URL as the message names it, e.g. {@code snowid.lease.url='http://ids:8080'}
     * @param plainHttpOptIn  whether the front end's opt-in is set
     * @param optIn           the opt-in, as the front end spells it, e.g. {@code snowid.lease.allowPlainHttp=true}
     * @throws IllegalArgumentException {@code [secret_over_plain_http]}, naming the opt-in
     */
    public static void requireSafeForSecret(URL url, String named, boolean plainHttpOptIn, String optIn) {
        if (url.getProtocol().equals("http") && !isLoopback(url) && !plainHttpOptIn) {
            throw new IllegalArgumentException(WarningCode.SECRET_OVER_PLAIN_HTTP.tag(named + " is plain http to " + url.getHost()
                    + ", which is not this machine: the bearer secret would cross the network unencrypted, for anyone on the way to"
                    + " read and use; use https, or, on a network you trust (a runner reached by a compose service name), set " + optIn));
        }
    }

    /** Whether {@code url} stays on this machine, where plain http exposes nothing. */
    public static boolean isLoopback(URL url) {
        String host = url.getHost();
        if (host.equalsIgnoreCase("localhost") || LOOPBACK_IPV4.matcher(host).matches()) {
            return true;
        }
        if (!host.startsWith("[")) {
            return false; // a name such as 127.attacker.example: only DNS knows where it goes
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress(); // an IPv6 literal: parsed, never looked up
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
