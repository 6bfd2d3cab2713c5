package com.acme.emptyagent;

import java.lang.instrument.Instrumentation;

/**
 * An agent that does nothing: what any {@code -javaagent} costs before its premain runs
 * (agent/scripts/start-up.sh measures the snowid agent against it).
 */
public final class EmptyAgent {

    private EmptyAgent() {
    }

    public static void premain(String arguments, Instrumentation instrumentation) {
        // nothing: the JVM's own cost of an agent is the point
    }
}
