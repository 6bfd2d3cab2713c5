package dev.snowid.client;

import dev.snowid.ClockBehindException;
import dev.snowid.IdUnavailableException;
import dev.snowid.internal.NumberRange;
import dev.snowid.internal.ProblemCode;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.protocol.HolderLabel;
import java.io.IOException;

/**
 * The settings of {@link SnowidClient.Builder}, declared once: what each takes, its default and
 * what it means. The builder checks its values with them; the agent and the Spring Boot starter,
 * which configure a builder, draw their ranges and words from them and ask {@link #toFix} which of
 * them a failed {@code build()} points at. Not API: it may change in any release.
 */
public final class ClientSettings {

    // Named as the builder's methods: a builder has no names to warn about, but messages and docs name them.
    public static final Setting<String> LEASE_URL = Setting.named("leaseUrl").unsetMeans("required")
            .allowed("an http(s) base URL, without query or fragment")
            .means("the snowid function's base URL, the one its routes hang under (the template's LeaseUrl output)");
    public static final Setting<String> AWS_IAM = Setting.named("awsIam").alsoNamed("signing")
            .unsetMeans("one of these or secret")
            .means("sign every lease request with AWS SigV4 and this workload's AWS credentials");
    public static final Setting<String> SECRET = Setting.named("secret").secret()
            .unsetMeans("one of these or awsIam()")
            .allowed("the lease API's bearer secret: " + BearerSecretStrength.ALLOWED)
            .means("the lease API's bearer secret, for callers outside AWS; a supplier is asked on every call");
    public static final Setting<String> ALLOW_PLAIN_HTTP = Setting.named("allowPlainHttp").byDefault("false")
            .allowed("true or false", "true", "false")
            .means("true: send the secret over plain http to a host that is not loopback (a runner reached by a compose service"
                    + " name, on a network you trust); else refused");
    /** A holder is shown to operators, and stored with the lease: the lease API's rule ({@link HolderLabel}). */
    public static final Setting<String> HOLDER = Setting.named("holder")
            .unsetMeans("snowid-client <pid>@<host>")
            .allowed(HolderLabel.ALLOWED, "1", Integer.toString(HolderLabel.MAX_CHARS), "U+202E")
            .means("who holds the lease, as the slot map shows it to operators");
    public static final Setting<Long> LEASE_MILLIS = Setting.named("leaseMillis").in(LeaseTerms.LEASE_MILLIS_RANGE)
            .unsetMeans("what the API grants")
            .means("plan renewals for a lease this long; never longer than the API grants");
    public static final Setting<String> CODEC = Setting.named("codec")
            .unsetMeans("the API's epoch")
            .means("the ID layout and epoch; when set, a lease API with another epoch is refused");
    public static final Setting<Long> WAIT_FOR_SLOT = Setting.named("waitForSlotUpTo").in(Ranges.WAIT_FOR_SLOT).byDefault("0")
            .means("when every slot is held at build(), wait up to this long for one to free");
    /** Room for a few attempts after a lost answer, and short enough that a wrong URL is reported soon. */
    public static final long DEFAULT_STARTUP_DEADLINE_MILLIS = 10_000;
    public static final Setting<Long> STARTUP_DEADLINE = Setting.named("startupDeadline").in(Ranges.STARTUP_DEADLINE)
            .byDefault(Long.toString(DEFAULT_STARTUP_DEADLINE_MILLIS))
            .means("how long build() asks again, with the same request id, when the lease API gave no answer or one that"
                    + " settles nothing (a 5xx store_unavailable, unavailable, internal, or a gateway's page)");
    public static final Setting<String> SNAPSHOT_HOOKS = Setting.named("snapshotHooks").byDefault("true")
            .allowed("true or false", "true", "false")
            .means("with org.crac on the class path, release the lease before a CRaC or SnapStart checkpoint and lease anew after"
                    + " the restore; false when something else calls suspend() and resume(), as the Spring Boot starter does");
    public static final Setting<String> AUDIT_AT_INFO = Setting.named("auditAtInfo").byDefault("false")
            .allowed("true or false", "true", "false")
            .means("true: log every lease grant, renewal, release and loss as an audit line at INFO (logger dev.snowid.client.audit);"
                    + " else at FINE, below what logging shows by default");
    public static final Setting<String> LOG = Setting.named("log")
            .unsetMeans("java.util.logging")
            .means("where lease events and audit lines go");

    public static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the client builder",
            LEASE_URL, AWS_IAM, SECRET, ALLOW_PLAIN_HTTP, HOLDER, LEASE_MILLIS, CODEC, WAIT_FOR_SLOT, STARTUP_DEADLINE, SNAPSHOT_HOOKS, AUDIT_AT_INFO,
            LOG);

    private ClientSettings() {
    }

    /**
     * The ranges alone, declared here once: a front end that only checks them (the agent, whose
     * fixed node never builds a client) loads this class, not the builder's dozen settings.
     */
    public static final class Ranges {
        /** Longest wait for a slot: the longest lease, by then every dead holder's slot is free. */
        public static final NumberRange WAIT_FOR_SLOT = NumberRange.of(0, SnowidClient.Builder.MAX_SLOT_WAIT_MILLIS, "ms");
        /** How long start-up asks again after no settled answer: 0 (one attempt) to ten minutes, beyond which a start-up looks hung. */
        public static final NumberRange STARTUP_DEADLINE = NumberRange.of(0, 600_000, "ms");

        private Ranges() {
        }
    }

    /**
     * The builder setting to fix after {@code build()} threw {@code failure}: the one place that
     * knows which, for every front end built on the client. A full pool: {@link #WAIT_FOR_SLOT};
     * another epoch: {@link #CODEC}; refused credentials: {@link #SECRET} (or the signing that
     * stands for it); no answer, or a failing one: {@link #LEASE_URL}; a refused value: the
     * setting its message starts with. Null when no setting can fix it: this machine's clock.
     */
    public static Setting<?> toFix(RuntimeException failure) {
        if (failure instanceof NoFreeSlotException) {
            return WAIT_FOR_SLOT;
        }
        if (failure instanceof EpochMismatchException) {
            return CODEC;
        }
        if (failure instanceof ClockSkewException || failure instanceof ClockBehindException) {
            return null;
        }
        if (failure instanceof LeaseSecretRefusedException) {
            return SECRET;
        }
        if (failure instanceof IdUnavailableException) {
            return LEASE_URL;
        }
        String message = failure.getMessage() == null ? "" : failure.getMessage();
        String code = ProblemCode.codeOf(message);
        message = code == null ? message : message.substring(code.length() + 3); // "[weak_lease_secret] secret is …" names secret
        for (Setting<?> setting : CATALOGUE.settings()) {
            for (String name : setting.names()) {
                if (message.startsWith(name + " ") || message.startsWith(name + "(")) {
                    return setting;
                }
            }
        }
        return LEASE_URL;
    }

    /** Whether {@code failure} means the lease API never answered (connect or read failed), rather than answered with an error. */
    public static boolean unanswered(RuntimeException failure) {
        return failure instanceof IdUnavailableException && failure.getCause() instanceof IOException;
    }
}
