package dev.snowid.lambda.api;

import dev.snowid.SnowflakeCodec;
import dev.snowid.internal.WholeNumber;
import dev.snowid.lambda.http.ApiError;
import dev.snowid.protocol.EchoedInput;
import dev.snowid.protocol.ErrorCode;
import java.util.List;
import java.util.OptionalLong;

/** The {@code count} query parameter of {@code /ids}: a whole number from 1 to 4,096, default 1. */
public final class IdCount {

    static final int DEFAULT = 1;
    /** One millisecond's worth of one slot: a batch never needs more than two milliseconds. */
    static final int MAX = SnowflakeCodec.IDS_PER_MILLISECOND;

    private static final String ALLOWED = "count must be a whole number from 1 to " + MAX + " (default " + DEFAULT
            + "), written in digits only, given at most once";

    private IdCount() {
    }

    static int parse(List<String> values) {
        if (values.isEmpty()) {
            return DEFAULT;
        }
        if (values.size() > 1) {
            throw invalid("count is given " + values.size() + " times");
        }
        String text = values.get(0);
        if (text.isEmpty()) {
            throw invalid("count is empty");
        }
        OptionalLong count = WholeNumber.parse(text);
        if (!count.isPresent()) {
            throw invalid("count '" + EchoedInput.shortened(text) + "' is not a whole number");
        }
        if (!SnowflakeCodec.isBatchCount(count.getAsLong())) {
            throw invalid("count " + EchoedInput.shortened(text) + " is out of range");
        }
        return (int) count.getAsLong();
    }

    private static ApiError invalid(String what) {
        return ApiError.badRequest(ErrorCode.INVALID_COUNT, what + ": " + ALLOWED);
    }
}
