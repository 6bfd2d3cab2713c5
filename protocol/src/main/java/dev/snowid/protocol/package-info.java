/**
 * The lease API's wire contract, one set of types for both sides: the function answers with
 * them and the client calls with them. Routes ({@link dev.snowid.protocol.LeaseRoute}), field
 * names ({@link dev.snowid.protocol.LeaseFields}), bodies ({@link dev.snowid.protocol.LeaseMessage},
 * {@link dev.snowid.protocol.ErrorAnswer}) and error codes ({@link dev.snowid.protocol.ErrorCode}).
 * The reference for people is {@code docs/api.md}; the protocol behind it is {@code docs/protocol.md}.
 */
package dev.snowid.protocol;

