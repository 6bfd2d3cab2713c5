package dev.snowid.client;

import dev.snowid.WallClock;
import dev.snowid.lease.AcquisitionRequest;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.LeaseTerms;
import java.util.OptionalLong;

/**
 * The client's side of the lease API in the simulator, in place of {@link HttpLeaseSource} (the
 * HTTP layer is not simulated): it keeps what that class keeps between calls, with its rules. An
 * acquisition without an answer, or with one that settles nothing (a 5xx from an unavailable
 * store), is asked again with the same request id; any other answer ends the id. Every answer
 * measures this clock against the API's {@code Date} header (whole seconds). A renewal answered
 * for another lease is a loss. After a restore, the skew and the unanswered id are forgotten.
 */
public final class SimulatedLeaseApi implements LeaseSource {

    /** The simulated network and the lease API behind it; {@link NoAnswer} when nothing came back within the call's timeout. */
    public interface Link {
        Lease acquire(String holder, String requestId);

        Lease renew(Lease lease);

        void release(Lease lease, long lastIssuedMillis);

        /** Unix ms of the lease API's clock when it answered the latest call (its Date header, before rounding). */
        long answeredAtMillis();
    }

    /** No answer within the call's timeout: the request or its answer was lost, or it came too late. */
    public static final class NoAnswer extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public NoAnswer(String message) {
            super(message, null, false, false);
        }
    }

    private final Link link;
    private final WallClock clock;
    private final String holder;
    private long skewMillis;
    private boolean skewKnown;
    private String unansweredAcquisition;

    public SimulatedLeaseApi(Link link, WallClock clock, String holder) {
        this.link = link;
        this.clock = clock;
        this.holder = holder;
    }

    @Override
    public Lease acquire() {
        if (unansweredAcquisition == null) {
            unansweredAcquisition = AcquisitionRequest.drawId();
        }
        String requestId = unansweredAcquisition;
        long sent = clock.millis();
        Lease lease;
        try {
            lease = link.acquire(holder, requestId);
        } catch (NoAnswer none) {
            throw new UnsettledRequestException("no answer from the lease API: " + none.getMessage(), 1_000, null);
        } catch (LeaseStoreUnavailableException unsettled) {
            measure(sent);
            throw new UnsettledRequestException(unsettled.getMessage(), unsettled.retryAfterMillis(), unsettled);
        } catch (RuntimeException answered) {
            measure(sent);
            unansweredAcquisition = null;
            throw answered;
        }
        measure(sent);
        unansweredAcquisition = null;
        return lease;
    }

    @Override
    public Lease renew(Lease lease) {
        Lease renewed = answered(() -> link.renew(lease));
        if (!renewed.slot().equals(lease.slot()) || !renewed.owner().equals(lease.owner()) || renewed.fence() != lease.fence()) {
            throw new LeaseLostException("the lease API renewed a different lease (" + renewed + ") than ours (" + lease + ")");
        }
        return renewed;
    }

    @Override
    public void release(Lease lease, long lastIssuedMillis) {
        answered(() -> {
            link.release(lease, lastIssuedMillis);
            return lease;
        });
    }

    @Override
    public OptionalLong clockSkewMillis() {
        return skewKnown ? OptionalLong.of(skewMillis) : OptionalLong.empty();
    }

    /** As {@link HttpLeaseSource}'s: after a restore the skew was another machine's, and an unanswered id every copy's. */
    void forgetAfterRestore() {
        skewKnown = false;
        unansweredAcquisition = null;
    }

    /** What a restored client runs to forget this source's memory: a named class, so that a snapshot can be copied. */
    static final class Forget implements Runnable {
        private final SimulatedLeaseApi source;

        Forget(SimulatedLeaseApi source) {
            this.source = source;
        }

        @Override
        public void run() {
            source.forgetAfterRestore();
        }
    }

    private Lease answered(java.util.function.Supplier<Lease> call) {
        long sent = clock.millis();
        try {
            Lease lease = call.get();
            measure(sent);
            return lease;
        } catch (NoAnswer none) {
            throw new UnsettledRequestException("no answer from the lease API: " + none.getMessage(), 1_000, null);
        } catch (RuntimeException refused) {
            measure(sent);
            throw refused;
        }
    }

    /** As {@link dev.snowid.lease.DateHeaderSkew}: the local middle of the round trip against the header's second, stamped mid-second. */
    private void measure(long sentAtMillis) {
        long received = clock.millis();
        long serverSecond = Math.floorDiv(link.answeredAtMillis(), 1_000) * 1_000;
        skewMillis = sentAtMillis + (received - sentAtMillis) / 2 - (serverSecond + LeaseTerms.DATE_HEADER_RESOLUTION_MILLIS / 2);
        skewKnown = true;
    }
}
