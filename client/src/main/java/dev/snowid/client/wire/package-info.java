/**
 * The lease API's wire contract, one set of types for both sides: the function answers with
 * them and the client calls with them. Routes ({@link dev.snowid.client.wire.LeaseRoute}), field
 * names ({@link dev.snowid.client.wire.LeaseFields}), bodies ({@link dev.snowid.client.wire.LeaseMessage},
 * {@link dev.snowid.client.wire.ErrorAnswer}) and error codes ({@link dev.snowid.client.wire.ErrorCode}).
 * The reference for people is {@code docs/api.md}; the protocol behind it is {@code docs/protocol.md}.
 */
package dev.snowid.client.wire;
