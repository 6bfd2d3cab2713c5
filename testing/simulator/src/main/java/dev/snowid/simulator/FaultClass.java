package dev.snowid.simulator;

/** Every kind of fault the simulator injects, as the issue lists them; a plan draws each from its seed. */
public enum FaultClass {
    /** Network (one holder's link to the lease API, for a while): a request lost on the way. */
    REQUEST_LOST,
    /** The request served, its answer lost. */
    ANSWER_LOST,
    /** The request delivered twice. */
    DUPLICATED,
    /** The request delivered after the caller's timeout, so after later requests (reordered). */
    DELAYED,
    /** A holder killed (kill -9) and started again later as a new process. */
    CRASH_RESTART,
    /** A holder stopped for longer than a lease (GC, SIGSTOP), then going on where it was. */
    PAUSE,
    /** A holder's snapshot (CRaC: suspend, copy, resume) restored into several copies at once. */
    SNAPSHOT_COPIES,
    /** A process's clock set off by up to the tolerated skew (NTP within bounds). */
    CLOCK_OFFSET,
    /** A process's clock set off beyond the tolerated skew. */
    CLOCK_BEYOND_SKEW,
    /** A process's clock running fast or slow. */
    CLOCK_DRIFT,
    /** A process's clock stepping forward or back at once. */
    CLOCK_JUMP,
    /** The lease table unavailable for a while (every call fails before touching it). */
    ENGINE_UNAVAILABLE,
    /** The lease table slow: every call takes seconds. */
    ENGINE_SLOW,
    /** Conditional writes that succeed, answered with an error. */
    WRITE_ERRORED,
    /** The whole fleet asleep for days; DynamoDB's TTL deletes items past their ttl meanwhile, at any moment. */
    TTL_DELETION,
    /** An operator moves the block to the other region: drain, release, claim. */
    BLOCK_HANDOVER,
    /** An operator restores a region's lease table from an earlier backup, after the documented wait. */
    TABLE_RESTORE,
    /** The claim registry unreachable from both regions for a while. */
    REGISTRY_UNREACHABLE,
    /** A careless client sends another holder's acquisition id (a constant id): the replay must not answer it. */
    REQUEST_ID_SHARED,
    /** A function environment recycled: gone with what it held, a fresh one in its place. */
    ENV_RECYCLED
}
