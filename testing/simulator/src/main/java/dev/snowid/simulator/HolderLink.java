package dev.snowid.simulator;

import dev.snowid.IdUnavailableException;
import dev.snowid.client.SimulatedLeaseApi;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.region.BlockNotClaimedException;
import java.util.function.Function;

/**
 * One holder's network path to its region's lease API: a function environment that is free
 * takes the call (as Lambda runs one request per environment); the holder's network faults lose
 * the request or its answer, duplicate it, or deliver it after the caller's timeout. The caller
 * blocks for the round trip; the rest of the world runs meanwhile.
 */
final class HolderLink implements SimulatedLeaseApi.Link {

    static final long ACQUIRE_TIMEOUT_MILLIS = 20_000;
    static final long RENEW_TIMEOUT_MILLIS = 10_000;
    static final long RELEASE_TIMEOUT_MILLIS = 5_000;

    private final Simulation sim;
    private final Holder holder;
    private long answeredAt;
    /** The id of the latest acquisition sent. */
    private String lastRequestId;
    /** A careless client: its next acquisition sends the latest id of that link's holder instead of its own. */
    private HolderLink borrowFrom;

    HolderLink(Simulation sim, Holder holder) {
        this.sim = sim;
        this.holder = holder;
    }

    @Override
    public Lease acquire(String label, String requestId) {
        String id = borrowFrom != null && borrowFrom.lastRequestId != null ? borrowFrom.lastRequestId : requestId;
        borrowFrom = null;
        lastRequestId = id;
        return call("POST /leases", ACQUIRE_TIMEOUT_MILLIS, env -> env.source.acquire(label, id));
    }

    @Override
    public Lease renew(Lease lease) {
        return call("PUT /leases/" + lease.slot(), RENEW_TIMEOUT_MILLIS, env -> env.source.renew(lease.slot(), lease.owner(), lease.fence()));
    }

    @Override
    public void release(Lease lease, long lastIssuedMillis) {
        call("DELETE /leases/" + lease.slot(), RELEASE_TIMEOUT_MILLIS, env -> {
            env.source.release(lease.slot(), lease.owner(), lease.fence(), lastIssuedMillis);
            return null;
        });
    }

    void borrowIdOf(HolderLink other) {
        borrowFrom = other;
    }

    @Override
    public long answeredAtMillis() {
        return answeredAt;
    }

    private <T> T call(String route, long timeoutMillis, Function<FunctionEnv, T> serve) {
        FaultClass fault = sim.networkFault(holder);
        FunctionEnv env = sim.freeEnv(holder.region);
        long oneWay = sim.latencyNanos();
        long timeout = timeoutMillis * 1_000_000;
        sim.note(holder.name + " -> " + route + (env == null ? " (no free environment)" : " at " + env.name)
                + (fault == null ? "" : " " + fault));
        if (env == null) {
            sim.advance(2 * oneWay);
            answeredAt = sim.trueMillis();
            throw new LeaseStoreUnavailableException("simulated: 503, no function environment free in " + holder.region.name, 1_000, null);
        }
        if (fault == FaultClass.REQUEST_LOST) {
            sim.advance(timeout);
            throw new SimulatedLeaseApi.NoAnswer("the request was lost");
        }
        if (fault == FaultClass.DELAYED) {
            long late = timeout + sim.load.nextInt(30_000) * 1_000_000L;
            sim.after(env, false, late, "late " + route + " from " + holder.name, () -> serveQuietly(env, route, serve));
            sim.advance(timeout);
            throw new SimulatedLeaseApi.NoAnswer("the request came after the timeout");
        }
        sim.advance(oneWay);
        T result = null;
        RuntimeException refusal = null;
        if (!env.alive || env.pausedUntilNanos > sim.now() || env.depth > 0) {
            refusal = new LeaseStoreUnavailableException("simulated: 502, the function environment went away", 1_000, null);
        } else {
            Proc before = sim.enter(env);
            try {
                result = serve.apply(env);
            } catch (RuntimeException answered) {
                refusal = asAnswered(answered);
            } finally {
                sim.leave(env, before);
            }
        }
        long served = sim.trueMillis();
        if (!env.alive || !holder.alive) {
            throw new SimulatedLeaseApi.NoAnswer("the process at one end died meanwhile");
        }
        if (fault == FaultClass.DUPLICATED) {
            sim.after(env, false, sim.load.nextInt(2_000) * 1_000_000L, "duplicate " + route + " from " + holder.name,
                    () -> serveQuietly(env, route, serve));
        }
        if (fault == FaultClass.ANSWER_LOST) {
            sim.advance(Math.max(0, timeout - oneWay));
            throw new SimulatedLeaseApi.NoAnswer("the answer was lost");
        }
        sim.advance(oneWay);
        answeredAt = served;
        sim.note(holder.name + " <- " + route + " " + (refusal == null ? String.valueOf(result) : refusal.getClass().getSimpleName()));
        if (refusal != null) {
            throw refusal;
        }
        return result;
    }

    private <T> void serveQuietly(FunctionEnv env, String route, Function<FunctionEnv, T> serve) {
        try {
            sim.note(env.name + " served a stray " + route + ": " + serve.apply(env));
        } catch (RuntimeException refused) {
            sim.note(env.name + " refused a stray " + route + ": " + refused.getClass().getSimpleName());
        }
    }

    /** What the lease API answers for a failure: its refusals as they are, its own clock's and the region's as 503s, the rest a 500. */
    private RuntimeException asAnswered(RuntimeException failure) {
        if (failure instanceof ClockSkewException || failure instanceof BlockNotClaimedException) {
            return new IdUnavailableException("simulated: 503 from the lease API: " + failure.getMessage(),
                    ((IdUnavailableException) failure).retryAfterMillis());
        }
        if (failure instanceof IdUnavailableException || failure instanceof LeaseLostException) {
            return failure;
        }
        sim.unexpected(failure);
        return new LeaseStoreUnavailableException("simulated: 500 internal", 1_000, failure);
    }
}
