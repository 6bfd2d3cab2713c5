package dev.snowid.local;

import dev.snowid.dynalite.EngineCredential;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

/** Adds the runner's engine credential to every request of an SDK client: the engine answers nothing else. */
final class EngineCredentialHeader implements ExecutionInterceptor {

    private final EngineCredential credential;

    EngineCredentialHeader(EngineCredential credential) {
        this.credential = credential;
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        return context.httpRequest().toBuilder().putHeader(EngineCredential.HEADER, credential.value()).build();
    }
}
