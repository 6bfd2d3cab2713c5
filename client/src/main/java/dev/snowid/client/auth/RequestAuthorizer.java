package dev.snowid.client.auth;

import java.net.URL;
import java.util.Map;

/**
 * How a lease request proves who sends it: the headers to send with it, computed for exactly
 * this method, URL and body. Asked anew for every request, so rotated secrets and refreshed
 * credentials are used as soon as they exist.
 */
public interface RequestAuthorizer {

    /**
     * @param method the HTTP method, upper case
     * @param url    the whole URL the request goes to, as sent (already percent-encoded)
     * @param body   the bytes of the body as sent; empty when there is none
     * @return the headers to add, by name
     * @throws dev.snowid.lease.LeaseStoreUnavailableException when no credentials can be had now
     */
    Map<String, String> headers(String method, URL url, byte[] body);

    /** How requests are authorized, for the start-up line: never a secret. */
    String describe();
}
