/**
 * A CRaC implementation for tests: {@code org.crac} (the library applications and AWS SnapStart
 * use) takes it for the JVM's own when the system property {@code org.crac.Core.Compat} names this
 * package, as {@code jdk.crac} is taken on a CRaC JDK. It keeps every resource org.crac registers
 * with it, and {@link dev.snowid.testing.crac.Core#checkpointRestore()} (reached through
 * {@code org.crac.Core.checkpointRestore()}) notifies them as a checkpoint and a restore do: each
 * {@code beforeCheckpoint}, newest first, then each {@code afterRestore}, oldest first. Nothing is
 * snapshotted: the hooks run on the real objects, in the real order, through org.crac's own code.
 */
package dev.snowid.testing.crac;
