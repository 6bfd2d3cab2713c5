package dev.snowid.protocol;

import dev.snowid.internal.WholeNumber;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code GET|POST /ids}: {@code {"ids":["…",…]}}, each ID a JSON string of its
 * decimal digits (a JavaScript number would round IDs above 2^53). Read by the agent's deployment
 * check; the function writes it with the same field name.
 */
public final class IdsAnswer {

    /** The answer's one field. */
    public static final String IDS = "ids";

    private IdsAnswer() {
    }

    /**
     * The IDs of an answer, in order.
     *
     * @throws IllegalArgumentException saying what is not as expected
     */
    public static long[] read(String body) {
        Map<String, Object> json = WireJson.parseWithLists(body);
        Object ids = json.get(IDS);
        if (json.size() != 1 || !(ids instanceof List)) {
            throw new IllegalArgumentException("not an {\"" + IDS + "\":[…]} answer: " + EchoedInput.shortened(body));
        }
        List<?> items = (List<?>) ids;
        long[] read = new long[items.size()];
        for (int i = 0; i < read.length; i++) {
            Object item = items.get(i);
            try {
                if (!(item instanceof String)) {
                    throw new IllegalArgumentException("not a string");
                }
                read[i] = WholeNumber.parse((String) item, 0, Long.MAX_VALUE);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + EchoedInput.shortened(String.valueOf(item))
                        + "' is not an ID as a JSON string of digits: " + EchoedInput.shortened(body), e);
            }
        }
        return read;
    }
}
