package dev.snowid.lambda.telemetry;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A Lambda logger that writes each message as it is to a stream: for tests, benchmarks and local tools. */
public final class StreamLogger implements LambdaLogger {

    private final PrintStream out;

    public StreamLogger(PrintStream out) {
        this.out = out;
    }

    @Override
    public void log(String message) {
        log(message.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void log(byte[] message) {
        out.write(message, 0, message.length);
        out.flush();
    }
}
