package dev.snowid.client.auth;

import dev.snowid.lease.LeaseStoreUnavailableException;
import java.net.URISyntaxException;
import java.net.URL;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * The SDK's own SigV4 signer with credentials from a provider of the SDK's. The only class of the
 * client that touches the SDK: loaded only when IAM signing is asked for.
 *
 * <p>The headers returned are those the signature covers and that the request does not have yet
 * ({@code Host} is sent by the HTTP client itself, as the signer saw it).
 */
final class SigV4Signer implements RequestAuthorizer {

    private static final long RETRY_AFTER_MILLIS = 1_000;

    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
    private final AwsCredentialsProvider credentials;
    private final String region;
    /** Null: the signer's own (the system clock). */
    private final Clock clock;

    SigV4Signer(AwsCredentialsProvider credentials, String region, Clock clock) {
        this.credentials = credentials;
        this.region = region;
        this.clock = clock;
    }

    /** The SDK's default chain; each of its providers caches credentials and refreshes them before they expire. */
    static SigV4Signer withDefaultCredentials(String region) {
        return new SigV4Signer(DefaultCredentialsProvider.builder().build(), region, null);
    }

    @Override
    public Map<String, String> headers(String method, URL url, byte[] body) {
        AwsCredentialsIdentity identity;
        try {
            identity = credentials.resolveCredentials();
        } catch (RuntimeException e) { // SdkClientException: no provider of the chain had credentials
            throw new LeaseStoreUnavailableException("no AWS credentials to sign the lease request with: " + e.getMessage(),
                    RETRY_AFTER_MILLIS, e);
        }
        SdkHttpRequest request;
        try {
            request = SdkHttpRequest.builder().method(SdkHttpMethod.fromValue(method)).uri(url.toURI()).build();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("cannot sign a request to '" + url + "': " + e.getMessage(), e);
        }
        SignRequest.Builder<AwsCredentialsIdentity> sign = SignRequest.builder(identity)
                .request(request)
                .payload(ContentStreamProvider.fromByteArrayUnsafe(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, AwsSigning.SERVICE)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region);
        if (clock != null) {
            sign.putProperty(HttpSigner.SIGNING_CLOCK, clock);
        }
        SignedRequest signed = signer.sign(sign.build());
        Map<String, String> headers = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> header : signed.request().headers().entrySet()) {
            if (!header.getKey().equalsIgnoreCase("Host")) {
                headers.put(header.getKey(), String.join(",", header.getValue()));
            }
        }
        return headers;
    }

    @Override
    public String describe() {
        return "AWS SigV4 (" + AwsSigning.SERVICE + ", " + region + ") with credentials from the AWS SDK's default chain";
    }
}
