package dev.snowid.lambda.dynamodb;

import static dev.snowid.lambda.dynamodb.LeaseTableSchema.EXPIRES_AT;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.FENCE;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.FLOOR;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.OWNER;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.SLOT;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The lease table's HTTP client, with one addition for SnapStart priming: a request that carries
 * {@link #HEADER} is answered here, in-process, with a fixed DynamoDB answer, and never sent. So
 * everything of a call but the socket (request building, marshalling, signing, the interceptors,
 * response and error parsing) can be run before a snapshot without touching the table. Requests
 * without the header, which is every request the store makes for a lease, go to the JDK's client.
 */
final class PrimingHttpClient implements SdkHttpClient {

    /** Marks a priming request; its value names the answer ({@link Answer}). */
    static final String HEADER = "x-snowid-priming";

    /** The owner token of priming's requests and answers: a fixed placeholder, never a drawn token. */
    static final String OWNER_TOKEN = "00000000000000000000000000000000";

    /** The answers priming asks for: the ones an acquisition reads. */
    enum Answer {
        /** A conditional write that won: the item as stored. */
        WRITTEN(200, "{\"Attributes\":{\"" + SLOT + "\":{\"N\":\"0\"},\"" + OWNER + "\":{\"S\":\"" + OWNER_TOKEN
                + "\"},\"" + FENCE + "\":{\"N\":\"1\"},\"" + FLOOR + "\":{\"N\":\"0\"},\"" + EXPIRES_AT + "\":{\"N\":\"2\"}}}"),
        /** A conditional write that lost: the slot is held. */
        CONDITION_FAILED(400, "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException\","
                + "\"message\":\"The conditional request failed\"}"),
        /** A Scan of an empty table. */
        SCANNED(200, "{\"Count\":0,\"Items\":[],\"ScannedCount\":0}");

        private final int status;
        private final byte[] body;

        Answer(int status, String body) {
            this.status = status;
            this.body = body.getBytes(StandardCharsets.UTF_8);
        }
    }

    private final SdkHttpClient network;

    PrimingHttpClient(SdkHttpClient network) {
        this.network = network;
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        Optional<String> priming = request.httpRequest().firstMatchingHeader(HEADER);
        if (priming.isEmpty()) {
            return network.prepareRequest(request);
        }
        Answer answer = Answer.valueOf(priming.get());
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                return HttpExecuteResponse.builder()
                        .response(SdkHttpResponse.builder().statusCode(answer.status)
                                .putHeader("Content-Type", "application/x-amz-json-1.0")
                                .putHeader("Content-Length", Integer.toString(answer.body.length))
                                .build())
                        .responseBody(AbortableInputStream.create(new ByteArrayInputStream(answer.body)))
                        .build();
            }

            @Override
            public void abort() {
                // Nothing in flight.
            }
        };
    }

    @Override
    public String clientName() {
        return network.clientName();
    }

    @Override
    public void close() {
        network.close();
    }
}
