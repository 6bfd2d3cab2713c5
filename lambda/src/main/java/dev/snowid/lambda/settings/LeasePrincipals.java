package dev.snowid.lambda.settings;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The IAM principals that may use the lease routes in {@code aws_iam} mode: API Gateway verified
 * the caller's signature, this list says whether that caller is one of the workloads meant to
 * hold slots (an account's admin roles hold {@code execute-api:Invoke} on everything).
 *
 * <p>Each entry is an ARN, or an ARN pattern where {@code *} stands for any run of characters:
 * <ul>
 *   <li>a role, {@code arn:aws:iam::123456789012:role/snowid-workload} (a path is allowed): it admits
 *       the role's sessions, the {@code arn:aws:sts::123456789012:assumed-role/snowid-workload/<session>}
 *       ARNs API Gateway reports for callers that sign with the role's credentials;</li>
 *   <li>an assumed-role session or a pattern of them, {@code arn:aws:sts::123456789012:assumed-role/snowid-*}{@code /*};</li>
 *   <li>a user, {@code arn:aws:iam::123456789012:user/ci-tool}.</li>
 * </ul>
 * Entries are separated by commas or white space. The account is 12 digits or {@code *}; a lone
 * {@code *}, or an entry whose account and name are both wildcards, would admit every principal of
 * every account and is refused.
 */
public final class LeasePrincipals {

    /** {@code arn:<partition>:<iam|sts>::<account>:<resource>} */
    private static final Pattern ARN = Pattern.compile("arn:([a-z*-]+):(iam|sts)::([0-9]{12}|\\*):(.+)");
    private static final Pattern ROLE = Pattern.compile("role/(?:.*/)?([^/]+)");

    private final List<String> entries;
    private final List<Pattern> patterns;

    private LeasePrincipals(List<String> entries, List<Pattern> patterns) {
        this.entries = entries;
        this.patterns = patterns;
    }

    /**
     * @throws IllegalArgumentException an entry is no IAM or STS ARN (pattern), or admits everyone; the message
     *         starts with "entry '...'", for the caller to say which setting it is of
     */
    public static LeasePrincipals parse(String value) {
        List<String> entries = new ArrayList<>();
        List<Pattern> patterns = new ArrayList<>();
        for (String entry : value.trim().split("[,\\s]+")) {
            if (entry.isEmpty()) {
                continue;
            }
            Matcher arn = ARN.matcher(entry);
            if (!arn.matches()) {
                throw new IllegalArgumentException("entry '" + entry + "' is not an IAM or STS ARN: allowed are roles "
                        + "(arn:aws:iam::123456789012:role/snowid-workload), assumed-role sessions (arn:aws:sts::123456789012:"
                        + "assumed-role/snowid-workload/*) and users (arn:aws:iam::123456789012:user/name), '*' for any characters");
            }
            if (arn.group(3).equals("*") && arn.group(4).replace("assumed-role/", "").replace("role/", "").replace("user/", "")
                    .replace("/", "").replace("*", "").isEmpty()) {
                throw new IllegalArgumentException("entry '" + entry + "' admits every principal of every account: name "
                        + "the account or the roles");
            }
            entries.add(entry);
            patterns.add(glob(entry));
            Matcher role = arn.group(2).equals("iam") ? ROLE.matcher(arn.group(4)) : null;
            if (role != null && role.matches()) {
                // The role's sessions: API Gateway reports the assumed-role ARN, which carries no role path.
                patterns.add(glob("arn:" + arn.group(1) + ":sts::" + arn.group(3) + ":assumed-role/" + role.group(1) + "/*"));
            }
        }
        return new LeasePrincipals(Collections.unmodifiableList(entries), Collections.unmodifiableList(patterns));
    }

    /** Whether no principal is listed. */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Whether the verified caller with this ARN is listed. */
    public boolean admits(String callerArn) {
        String caller = callerArn.trim();
        for (Pattern pattern : patterns) {
            if (pattern.matcher(caller).matches()) {
                return true;
            }
        }
        return false;
    }

    /** The entries as configured. */
    public List<String> entries() {
        return entries;
    }

    private static Pattern glob(String entry) {
        StringBuilder regex = new StringBuilder();
        for (String part : entry.split("\\*", -1)) {
            if (regex.length() > 0) {
                regex.append(".*");
            }
            regex.append(Pattern.quote(part));
        }
        return Pattern.compile(regex.toString());
    }

    @Override
    public String toString() {
        return entries.isEmpty() ? "(none)" : String.join(",", entries);
    }
}
