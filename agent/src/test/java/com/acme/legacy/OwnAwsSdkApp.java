package com.acme.legacy;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.core.util.VersionInfo;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * A legacy application that brings its own AWS SDK v2 (as most services on AWS do): it uses
 * its SDK's classes, from its own class path, and signs a request of its own with them; then it
 * runs as {@link LeasedApp}. Prints {@code APP_SDK <where the SDK's signer class came from>},
 * {@code APP_SDK_VERSION <version>} and {@code APP_SIGNED <the Authorization header's start>}.
 */
public final class OwnAwsSdkApp {

    public static void main(String[] args) throws Exception {
        System.out.println("APP_SDK " + AwsV4HttpSigner.class.getProtectionDomain().getCodeSource().getLocation());
        System.out.println("APP_SDK_VERSION " + VersionInfo.SDK_VERSION);
        AwsCredentialsIdentity credentials = AwsBasicCredentials.create("AKIAAPPOWNKEY0000001", "app-own-secret");
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.GET)
                .uri(URI.create("https://s3.eu-west-1.amazonaws.com/app-bucket")).build();
        String authorization = AwsV4HttpSigner.create().sign(SignRequest.builder(credentials).request(request)
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3").putProperty(AwsV4HttpSigner.REGION_NAME, "eu-west-1")
                        .build())
                .request().firstMatchingHeader("Authorization").orElse("none");
        System.out.println("APP_SIGNED " + authorization.substring(0, authorization.indexOf(',')));
        LeasedApp.main(args);
    }
}
