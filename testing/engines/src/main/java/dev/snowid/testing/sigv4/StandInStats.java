package dev.snowid.testing.sigv4;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the AWS stand-ins saw, as they report it: requests verified, forwarded and rejected, credentials issued and used. */
public record StandInStats(int verified, List<String> forwarded, List<String> rejected, Map<String, Integer> keysUsed,
                           Map<String, String> callerOfKey, Map<String, Integer> issued, int imdsTokens,
                           int imdsRefusedWithoutToken) {

    static StandInStats parse(String text) {
        int verified = 0;
        int imdsTokens = 0;
        int imdsRefused = 0;
        List<String> forwarded = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        Map<String, Integer> keysUsed = new LinkedHashMap<>();
        Map<String, String> callers = new LinkedHashMap<>();
        Map<String, Integer> issued = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String[] fields = line.split(" ", 2);
            switch (fields[0]) {
                case "verified" -> verified = Integer.parseInt(fields[1]);
                case "imds_tokens" -> imdsTokens = Integer.parseInt(fields[1]);
                case "imds_refused_without_token" -> imdsRefused = Integer.parseInt(fields[1]);
                case "issued" -> {
                    String[] parts = fields[1].split(" ");
                    issued.put(parts[0], Integer.parseInt(parts[1]));
                }
                case "key_used" -> {
                    String[] parts = fields[1].split(" ");
                    keysUsed.put(parts[0], Integer.parseInt(parts[1]));
                    callers.put(parts[0], parts[2]);
                }
                case "forwarded" -> forwarded.add(fields[1]);
                case "rejected" -> rejected.add(fields[1]);
                case "" -> {
                }
                default -> throw new IllegalArgumentException("an unknown line from the stand-ins: " + line);
            }
        }
        return new StandInStats(verified, forwarded, rejected, keysUsed, callers, issued, imdsTokens, imdsRefused);
    }

    /** Credentials of this source ({@code container}, {@code imds}) handed out so far. */
    public int issuedBy(String source) {
        return issued.getOrDefault(source, 0);
    }
}
