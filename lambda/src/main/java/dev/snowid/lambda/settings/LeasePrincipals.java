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
 * <p>An entry means what IAM means by it, as far as a caller's ARN can show it. API Gateway
 * reports a role's caller as {@code arn:aws:sts::<account>:assumed-role/<role name>/<session>}: the
 * role's name, never its path. So every entry names one account (12 digits, never {@code *}), and is
 * <ul>
 *   <li>one role, {@code arn:aws:iam::123456789012:role/snowid-workload} (a path may be written:
 *       role names are unique in an account), admitting that role's sessions; or {@code role/*},
 *       every role of the account, written out on purpose;</li>
 *   <li>one user, {@code arn:aws:iam::123456789012:user/ci-tool}, or {@code user/*};</li>
 *   <li>sessions, {@code arn:aws:sts::123456789012:assumed-role/<role name>/<session>}, where {@code *}
 *       stands for any characters within the role's name or the session's.</li>
 * </ul>
 * Anything else is refused, never widened: a role path wildcard ({@code role/snowid/*}) or a
 * role name pattern, which a session ARN cannot be checked against; a {@code *} in the account,
 * the partition or the service; a wildcard across the resource type ({@code a*}). Entries are
 * separated by commas or white space.
 */
public final class LeasePrincipals {

    /** {@code arn:<partition>:<service>::<account>:<resource>}, each part as written. */
    private static final Pattern ARN = Pattern.compile("arn:([^:]*):([^:]*)::([^:]*):(.*)");
    private static final Pattern PARTITION = Pattern.compile("aws(-[a-z]+)*");
    private static final Pattern ACCOUNT = Pattern.compile("[0-9]{12}");
    /** IAM's characters of role, user and session names. */
    private static final Pattern NAME = Pattern.compile("[\\w+=,.@-]+");
    private static final Pattern NAME_PATTERN = Pattern.compile("[\\w+=,.@*-]+");
    private static final String ASSUMED_ROLE = "assumed-role";

    static final String EXAMPLES = "arn:aws:iam::123456789012:role/orders-service (one role's sessions), "
            + "arn:aws:iam::123456789012:role/* (every role of that account), arn:aws:iam::123456789012:user/ci-tool, "
            + "arn:aws:sts::123456789012:assumed-role/snowid-*/* (sessions of the roles named snowid-...)";

    private final List<String> entries;
    private final List<Entry> parsed;

    private LeasePrincipals(List<String> entries, List<Entry> parsed) {
        this.entries = entries;
        this.parsed = parsed;
    }

    /**
     * @throws IllegalArgumentException an entry is not one of the forms above; the message starts
     *         with "entry '...'", for the caller to say which setting it is of, and says what to write
     */
    public static LeasePrincipals parse(String value) {
        List<String> entries = new ArrayList<>();
        List<Entry> parsed = new ArrayList<>();
        for (String entry : value.trim().split("[,\\s]+")) {
            if (!entry.isEmpty()) {
                parsed.add(Entry.of(entry));
                entries.add(entry);
            }
        }
        return new LeasePrincipals(Collections.unmodifiableList(entries), Collections.unmodifiableList(parsed));
    }

    /** Whether no principal is listed. */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Whether the verified caller with this ARN is listed. */
    public boolean admits(String callerArn) {
        Matcher caller = ARN.matcher(callerArn.trim());
        if (!caller.matches()) {
            return false;
        }
        for (Entry entry : parsed) {
            if (entry.admits(caller.group(1), caller.group(2), caller.group(3), caller.group(4))) {
                return true;
            }
        }
        return false;
    }

    /** The entries as configured. */
    public List<String> entries() {
        return entries;
    }

    @Override
    public String toString() {
        return entries.isEmpty() ? "(none)" : String.join(",", entries);
    }

    /** What one entry admits. */
    private enum Kind { ROLE, EVERY_ROLE, USER, EVERY_USER, SESSIONS }

    private static final class Entry {
        private final Kind kind;
        private final String partition;
        private final String account;
        /** ROLE: the role's name; USER: {@code user/<path/>name}; SESSIONS: the role name's pattern. */
        private final String name;
        /** ROLE: {@code role/<path/>name}; SESSIONS: the session name's pattern. */
        private final String detail;
        /** SESSIONS: the two names' patterns, compiled once. */
        private final Pattern rolePattern;
        private final Pattern sessionPattern;

        private Entry(Kind kind, String partition, String account, String name, String detail) {
            this.kind = kind;
            this.partition = partition;
            this.account = account;
            this.name = name;
            this.detail = detail;
            this.rolePattern = kind == Kind.SESSIONS ? glob(name) : null;
            this.sessionPattern = kind == Kind.SESSIONS ? glob(detail) : null;
        }

        static Entry of(String entry) {
            Matcher arn = ARN.matcher(entry);
            if (!arn.matches()) {
                throw refused(entry, "is not an IAM or STS ARN");
            }
            String partition = arn.group(1);
            String service = arn.group(2);
            String account = arn.group(3);
            String resource = arn.group(4);
            if (!PARTITION.matcher(partition).matches()) {
                throw refused(entry, "has the partition '" + partition + "': write it out (aws, aws-cn, aws-us-gov), no '*'");
            }
            if (account.contains("*")) {
                throw refused(entry, "has '*' for the account: every entry names one account (12 digits); to admit principals "
                        + "of several accounts, list one entry per account, comma-separated");
            }
            if (!ACCOUNT.matcher(account).matches()) {
                throw refused(entry, "has the account '" + account + "': an account is 12 digits");
            }
            if (service.equals("iam")) {
                return iam(entry, partition, account, resource);
            }
            if (service.equals("sts")) {
                return sessions(entry, partition, account, resource);
            }
            throw refused(entry, "is of the service '" + service + "': callers are iam (roles, users) or sts (sessions), written out");
        }

        private static Entry iam(String entry, String partition, String account, String resource) {
            boolean role = resource.startsWith("role/");
            if (!role && !resource.startsWith("user/")) {
                throw refused(entry, "names no role or user: an iam entry's resource starts with role/ or user/, written out"
                        + " (a '*' never stands for the resource type)");
            }
            String type = role ? "role/" : "user/";
            String pathAndName = resource.substring(type.length());
            if (pathAndName.equals("*")) {
                return new Entry(role ? Kind.EVERY_ROLE : Kind.EVERY_USER, partition, account, null, null);
            }
            if (pathAndName.contains("*")) {
                if (!role) {
                    throw refused(entry, "is a pattern of users: a user entry names one user, or every user of the account"
                            + " (user/*)");
                }
                String lastSegment = pathAndName.substring(pathAndName.lastIndexOf('/') + 1);
                throw refused(entry, (pathAndName.indexOf('/') >= 0 ? "is a role path wildcard" : "is a pattern of role names")
                        + ": API Gateway reports a role's caller as arn:" + partition + ":sts::" + account
                        + ":assumed-role/<role name>/<session>, without the role's path, so only a role's name can be checked;"
                        + " it admits nobody. List each role (arn:" + partition + ":iam::" + account + ":role/<path>/<name>), or"
                        + " the sessions of roles by name: arn:" + partition + ":sts::" + account + ":assumed-role/"
                        + (lastSegment.isEmpty() || lastSegment.equals("*") ? "<name>" : lastSegment) + "/*");
            }
            String[] segments = pathAndName.split("/", -1);
            for (String segment : segments) {
                if (!NAME.matcher(segment).matches()) {
                    throw refused(entry, "does not name one " + (role ? "role" : "user") + ": its path and name are IAM names"
                            + " (letters, digits and +=,.@_-) separated by single slashes");
                }
            }
            return role ? new Entry(Kind.ROLE, partition, account, segments[segments.length - 1], resource)
                    : new Entry(Kind.USER, partition, account, resource, null);
        }

        private static Entry sessions(String entry, String partition, String account, String resource) {
            String[] segments = resource.split("/", -1);
            if (segments.length != 3 || !segments[0].equals(ASSUMED_ROLE) || !NAME_PATTERN.matcher(segments[1]).matches()
                    || !NAME_PATTERN.matcher(segments[2]).matches()) {
                throw refused(entry, "is not a session pattern: an sts entry is arn:" + partition + ":sts::" + account
                        + ":assumed-role/<role name>/<session name>, written out, '*' only within the two names");
            }
            return new Entry(Kind.SESSIONS, partition, account, segments[1], segments[2]);
        }

        boolean admits(String partition, String service, String account, String resource) {
            if (!this.partition.equals(partition) || !this.account.equals(account)) {
                return false;
            }
            boolean iam = service.equals("iam");
            String[] session = service.equals("sts") ? session(resource) : null;
            switch (kind) {
                case ROLE:
                    return session != null && session[0].equals(name) || iam && resource.equals(detail);
                case EVERY_ROLE:
                    return session != null || iam && resource.startsWith("role/");
                case USER:
                    return iam && resource.equals(name);
                case EVERY_USER:
                    return iam && resource.startsWith("user/");
                default:
                    return session != null && rolePattern.matcher(session[0]).matches() && sessionPattern.matcher(session[1]).matches();
            }
        }

        /** A session's role name and session name; null for anything else. */
        private static String[] session(String resource) {
            String[] segments = resource.split("/", -1);
            return segments.length == 3 && segments[0].equals(ASSUMED_ROLE) && !segments[1].isEmpty() && !segments[2].isEmpty()
                    ? new String[] {segments[1], segments[2]} : null;
        }

        /** {@code *} is any run of characters, within the one name it is written in. */
        private static Pattern glob(String pattern) {
            StringBuilder regex = new StringBuilder();
            for (String part : pattern.split("\\*", -1)) {
                if (regex.length() > 0) {
                    regex.append(".*");
                }
                regex.append(Pattern.quote(part));
            }
            return Pattern.compile(regex.toString());
        }

        private static IllegalArgumentException refused(String entry, String why) {
            return new IllegalArgumentException("entry '" + entry + "' " + why + ". Allowed: " + EXAMPLES);
        }
    }
}
