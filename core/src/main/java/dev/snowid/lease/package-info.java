/**
 * The lease protocol: how a generator gets a slot (datacenter, machine) that no other live
 * generator uses, from a table with one item per slot. The full text, with the table layout
 * and a proof sketch, is {@code docs/protocol.md}.
 *
 * <p><b>The invariant.</b> A holder issues only IDs whose timestamp lies in its
 * <em>confirmed</em> window {@code [floor, expiresAt)} ({@link dev.snowid.LeaseWindow}); a new
 * holder's {@code floor} is the previous holder's final {@code expiresAt}. So the IDs of two
 * holders of one slot fall in disjoint time ranges. "Confirmed" means the store answered the
 * write; a timed-out write is never assumed to have landed.
 *
 * <p><b>The three conditional writes</b> ({@link dev.snowid.lease.LeaseStore}, one write each):
 * <ul>
 * <li><b>acquire</b> if the slot has no item or its {@code expiresAt} is before the caller's
 *     {@code now}; the same write bumps {@code fence}, sets a new random {@code owner} token and
 *     expiry, and copies the old {@code expiresAt} into {@code floor};</li>
 * <li><b>renew</b> if {@code owner} and {@code fence} are the holder's; the stored expiry never
 *     shrinks (a renewal asking for less gets the stored, later lease back);</li>
 * <li><b>release</b> if {@code owner} and {@code fence} are the holder's: removes the owner and
 *     writes {@link dev.snowid.LeaseWindow#expiryOnRelease(long)}, so the slot is free at once and
 *     its next holder starts after the last ID issued.</li>
 * </ul>
 *
 * <p><b>Retries.</b> An acquisition may carry the caller's random id ({@link
 * dev.snowid.lease.AcquisitionRequest}), bound to the caller that sent it first by a claim on an
 * item of its own ({@link dev.snowid.lease.RequestClaim}), and recorded by the grant's own write
 * until the first renewal, the release or the next acquisition of the slot. A retry by that caller
 * whose first attempt was granted gets that grant again ({@link dev.snowid.lease.LeaseStore#grantedFor}):
 * the same slot, owner token, fence and window, read from an item nothing has changed since, and
 * nothing is written; so it creates no second holder and the argument below is unchanged. A release sent
 * again by the owner that released, before anyone took the slot, writes nothing and succeeds.
 *
 * <p><b>Why no clock has to be trusted.</b> While the fence is a holder's, only that holder can
 * change the item, and never lowers its expiry below anything it issued; the next acquisition
 * copies that final expiry into the new floor. Each holder checks only its own IDs' timestamps
 * against numbers the store confirmed; no step compares two clocks. A wrong clock can make a
 * holder wait, refuse or lose its slot, never issue outside its window. Skew is still bounded
 * ({@link dev.snowid.lease.LeaseTerms#toleratesSkew(long)}, measured from the store's
 * {@code Date} header) because a clock far ahead takes over live slots and one far behind cannot
 * reach a new floor: it costs availability, not uniqueness.
 *
 * <p>Fail closed: without a confirmed window, nothing is issued ({@link
 * dev.snowid.lease.LeasedGenerator}). DynamoDB's TTL only cleans up; every condition checks
 * {@code expiresAt} itself. The table must be single-region, and nobody may delete, edit or
 * restore its items while holders run.
 */
package dev.snowid.lease;
