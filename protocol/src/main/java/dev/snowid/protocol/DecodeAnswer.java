package dev.snowid.protocol;

import java.util.Map;

/**
 * The answer of {@code GET /ids/{id}} as the agent's CLI reads it: the region whose claim issued
 * the ID ({@code "region":"eu-west-1"}, null when the function does not know).
 */
public final class DecodeAnswer {

    private DecodeAnswer() {
    }

    /**
     * The {@code region} of a decode answer; null when it names none (unknown, or a function before regions).
     *
     * @throws IllegalArgumentException when the body is not a decode answer
     */
    public static String region(String body) {
        Map<String, Object> json = WireJson.parse(body);
        if (!json.containsKey("datacenter")) {
            throw new IllegalArgumentException("not a GET /ids/{id} answer: " + EchoedInput.shortened(body));
        }
        Object region = json.get(LeaseFields.REGION);
        return region instanceof String ? (String) region : null;
    }
}
