/**
 * The snowid agent's entry points: {@link dev.snowid.agent.SnowidAgent} ({@code premain} and
 * {@code agentmain}) and {@link dev.snowid.agent.SnowidCli} ({@code java -jar}). The rest lives by
 * concern: {@code config} (every setting, where it comes from and what it may be),
 * {@code instrument} (target bodies rewritten, the bootstrap bridge put in place), {@code runtime}
 * (the ID sources, the lease, the MBean, the log), {@code cli} (the jar's commands) and
 * {@code bootstrap} (the one class on the bootstrap class loader).
 *
 * <p><b>No lambdas on the start-up path.</b> The agent starts inside the application's JVM, before its {@code main}. Every class that
 * {@code premain} can reach, here and in core and client, uses named classes instead of lambdas
 * and method references: in {@code premain} the first lambda costs about 1 to 5 ms on JDK 17
 * and 25 (the JDK has already bootstrapped its own by then, but each new call site still spins a
 * class), against about 0.3 ms for an anonymous class, next to a start-up of about 30 ms.
 * {@code StartUpPathTest} enforces it: it follows every class {@code SnowidAgent} references and
 * fails on an {@code invokedynamic} to {@code LambdaMetafactory} (the few methods start-up never runs
 * are named there, each with why). The CLI is not on that path.
 */
package dev.snowid.agent;
