package dev.snowid.client.auth;

import java.net.URL;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lease requests signed with AWS Signature Version 4 for the {@code execute-api} service, with
 * credentials from the AWS SDK v2's default chain: environment variables, system properties,
 * profile files, web identity (EKS IRSA), EKS Pod Identity, the ECS container endpoint, EC2 IMDSv2.
 * The SDK's providers refresh credentials that expire.
 *
 * <p>Needs {@value #SIGNER_ARTIFACT} and {@value #CREDENTIALS_ARTIFACT} on the class path (and
 * {@value #STS_ARTIFACT} for web identity); without them {@code SnowidClient.Builder.build()}
 * fails and names them. This class itself touches no SDK class, so an application that never
 * asks for IAM loads none.
 */
public final class AwsSigning {

    public static final String SIGNER_ARTIFACT = "software.amazon.awssdk:http-auth-aws";
    public static final String CREDENTIALS_ARTIFACT = "software.amazon.awssdk:auth";
    public static final String STS_ARTIFACT = "software.amazon.awssdk:sts";
    /** The service API Gateway's IAM authorization verifies signatures for. */
    public static final String SERVICE = "execute-api";

    /** {@code <api-id>.execute-api.<region>.amazonaws.com} (or {@code .amazonaws.com.cn}). */
    private static final Pattern API_HOST = Pattern.compile("[a-z0-9]+\\.execute-api\\.([a-z0-9-]+)\\.amazonaws\\.com(\\.cn)?");
    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-[0-9]+");

    private static final String SIGNER_CLASS = "software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner";
    private static final String CREDENTIALS_CLASS = "software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider";
    private static final String STS_CLASS = "software.amazon.awssdk.services.sts.StsClient";

    private final String region;

    private AwsSigning(String region) {
        this.region = region;
    }

    /** Credentials from the SDK's default chain; the region from the lease URL's host name. */
    public static AwsSigning defaultCredentials() {
        return new AwsSigning(null);
    }

    /** The region the API is in: needed when the lease URL is a custom domain. */
    public AwsSigning region(String region) {
        if (region == null || !REGION.matcher(region.trim()).matches()) {
            throw new IllegalArgumentException("region '" + region + "' is not an AWS region name such as eu-west-1");
        }
        return new AwsSigning(region.trim());
    }

    /**
     * Signs requests to this lease URL.
     *
     * @throws IllegalArgumentException no region given and the URL's host does not name one
     * @throws IllegalStateException    the SDK is not on the class path; names the artifacts to add
     */
    public RequestAuthorizer authorizerFor(URL leaseUrl) {
        String signingRegion = region != null ? region : regionOf(leaseUrl.getHost()).orElse(null);
        if (signingRegion == null) { // not orElseThrow(lambda): the agent's start-up path has no lambdas
            throw new IllegalArgumentException("the lease URL's host '" + leaseUrl.getHost() + "' is not "
                    + "<api-id>.execute-api.<region>.amazonaws.com, so it names no region to sign for: give it with "
                    + "AwsSigning.defaultCredentials().region(\"eu-west-1\")");
        }
        requireClass(SIGNER_CLASS, SIGNER_ARTIFACT);
        requireClass(CREDENTIALS_CLASS, CREDENTIALS_ARTIFACT);
        if (webIdentityConfigured() && !present(STS_CLASS)) {
            throw new IllegalStateException("AWS_WEB_IDENTITY_TOKEN_FILE is set (web identity, e.g. EKS IRSA), but the SDK needs "
                    + "the Maven artifact " + STS_ARTIFACT + " on the class path to trade the token for credentials: add it");
        }
        return SigV4Signer.withDefaultCredentials(signingRegion);
    }

    /** The region in an API Gateway host name ({@code abc123.execute-api.eu-west-1.amazonaws.com}); empty for any other host. */
    public static java.util.Optional<String> regionOf(String host) {
        Matcher matcher = API_HOST.matcher(host.toLowerCase(Locale.ROOT));
        return matcher.matches() ? java.util.Optional.of(matcher.group(1)) : java.util.Optional.empty();
    }

    private static boolean webIdentityConfigured() {
        String file = System.getProperty("aws.webIdentityTokenFile", System.getenv("AWS_WEB_IDENTITY_TOKEN_FILE"));
        return file != null && !file.trim().isEmpty();
    }

    private static void requireClass(String className, String artifact) {
        if (!present(className)) {
            throw new IllegalStateException("signing lease requests with IAM needs the AWS SDK v2 on the class path: add the Maven "
                    + "artifacts " + SIGNER_ARTIFACT + " and " + CREDENTIALS_ARTIFACT + " (version 2.x; " + className
                    + " of " + artifact + " is missing)");
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, AwsSigning.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "AWS SigV4 for " + SERVICE + (region != null ? " in " + region : "");
    }
}
