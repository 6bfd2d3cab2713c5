/**
 * Snowflake IDs in-process from a slot leased from the snowid lease API: {@link dev.snowid.client.SnowidClient}
 * for applications, {@link dev.snowid.client.HttpLeaseSource} for whoever drives a
 * {@link dev.snowid.lease.LeasedGenerator} itself. Guide: {@code docs/client.md}; the protocol:
 * {@code docs/protocol.md}.
 */
package dev.snowid.client;
