package dev.snowid.simulator;

import dev.snowid.IdUnavailableException;
import dev.snowid.client.SimulatedClients;
import dev.snowid.client.SimulatedLeaseApi;
import dev.snowid.client.SnowidClient;

/**
 * A process holding a lease through the lease API: a real {@link SnowidClient} (first lease,
 * background renewer, suspend and resume), as the agent and the starter use it. Its application
 * threads ask for IDs now and then; a supervisor starts it again when its start fails.
 */
final class Holder extends Proc {

    final Region region;
    /** The name this process's lineage starts again under (a copy's ends in /copy). */
    final String label;
    /** The holder text its client sends: a snapshot's copies send the original's. */
    private String clientLabel;
    final HolderLink link;
    final SimulatedClients.Ticks ticks;
    SnowidClient client;

    Holder(Simulation sim, Region region, String name, String label, SimClock clock, long streamSeed) {
        super(sim, name, clock, streamSeed);
        this.region = region;
        this.label = label;
        this.clientLabel = label;
        this.link = new HolderLink(sim, this);
        this.ticks = new SimulatedClients.Ticks((delayNanos, what, task) -> sim.after(this, false, delayNanos, what, task));
    }

    /** Builds the client (leasing its first slot); a failed start is tried again in 1 s, as a supervisor would. */
    void start() {
        sim.after(this, false, 1_000_000, "start", () -> {
            SimulatedLeaseApi source = new SimulatedLeaseApi(link, clock, label);
            try {
                client = SimulatedClients.build(source, clock, clock, ticks, label, Simulation.CODEC, 10_000);
                sim.note(name + " started on " + client.currentLease().map(Object::toString).orElse("nothing"));
            } catch (RuntimeException failed) {
                sim.note(name + " start failed: " + failed.getClass().getSimpleName());
                sim.after(this, false, 1_000_000_000L, "restart", this::start);
                return;
            }
            issueSoon();
        });
    }

    /** Taken over from a snapshot: the copy's client, its renewer looking again through this process's ticks. */
    void adopt(SnowidClient copy, String originalLabel) {
        client = copy;
        clientLabel = originalLabel;
        issueSoon();
    }

    String clientLabel() {
        return clientLabel;
    }

    void issueSoon() {
        sim.after(this, true, 200_000_000L + sim.load.nextInt(1_600) * 1_000_000L, "nextIds", this::issue);
    }

    private void issue() {
        SnowidClient c = client;
        if (c == null || c.isClosed()) {
            return;
        }
        issueSoon();
        try {
            long[] ids = c.nextIds(1 + sim.load.nextInt(4));
            sim.issued(this, c.currentLease().orElse(null), ids);
        } catch (IdUnavailableException refused) {
            sim.note(name + " refused: " + refused.getClass().getSimpleName());
        }
    }

    /** Closes the client (releasing its lease) and ends the process. */
    void stop() {
        if (client != null && alive) {
            Proc before = sim.enter(this);
            try {
                client.close();
            } finally {
                sim.leave(this, before);
            }
        }
        kill();
    }
}
