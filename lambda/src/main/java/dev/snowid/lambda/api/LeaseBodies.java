package dev.snowid.lambda.api;

import dev.snowid.lease.HeldSlot;
import dev.snowid.protocol.LeaseFields;
import dev.snowid.protocol.RegionClaims;
import dev.snowid.protocol.SlotMap;
import dev.snowid.protocol.SlotRanges;
import dev.snowid.protocol.json.JsonWriter;

/**
 * The slot map's answer body, written by the function's JSON writer; its one reader is the wire
 * contract's {@code SlotMap}. A lease has one writer too, the contract's {@code LeaseMessage}. The
 * field names and their order are the wire contract's ({@link LeaseFields}): the contract fixtures
 * hold both sides to the same bytes.
 */
public final class LeaseBodies {

    private LeaseBodies() {
    }

    /** The slot map, as {@code GET /leases} answers it. */
    static String slotMap(SlotMap map) {
        JsonWriter json = new JsonWriter(256 + 160 * map.leases().size())
                .field(LeaseFields.NOW, map.now())
                .field(LeaseFields.LEASE_MILLIS, map.leaseMillis())
                .array(LeaseFields.PARTS);
        for (SlotMap.Part part : map.parts()) {
            json.objectElement()
                    .field(LeaseFields.PART, part.name())
                    .field(LeaseFields.SIZE, part.size())
                    .field(LeaseFields.HELD, part.held())
                    .field(LeaseFields.FREE, part.free())
                    .field(LeaseFields.EARLIEST_EXPIRY, part.earliestExpiry())
                    .field(LeaseFields.SLOTS, SlotRanges.write(part.slots()))
                    .close();
        }
        json.close().array(LeaseFields.LEASES);
        for (SlotMap.Entry entry : map.leases()) {
            HeldSlot lease = entry.lease();
            json.objectElement()
                    .field(LeaseFields.SLOT, lease.slot().index())
                    .field(LeaseFields.NODE, lease.slot().toString())
                    .field(LeaseFields.PART, entry.part())
                    .field(LeaseFields.HOLDER, lease.holder())
                    .field(LeaseFields.FENCE, lease.fence())
                    .field(LeaseFields.FLOOR, lease.floor())
                    .field(LeaseFields.EXPIRES_AT, lease.expiresAt())
                    .close();
        }
        json.close();
        RegionClaims region = map.region();
        if (region != null) {
            json.field(LeaseFields.REGION, region.self().region()).field(LeaseFields.STACK, region.self().stack())
                    .field(LeaseFields.GUARD, region.guard());
            if (region.claims() == null) {
                json.rawField(LeaseFields.CLAIMS, "null");
            } else {
                json.array(LeaseFields.CLAIMS);
                for (RegionClaims.Row claim : region.claims()) {
                    json.objectElement()
                            .field(LeaseFields.BLOCK, claim.block().index())
                            .field(LeaseFields.DATACENTERS, claim.block().datacenters())
                            .field(LeaseFields.REGION, claim.claimant().region())
                            .field(LeaseFields.STACK, claim.claimant().stack())
                            .field(LeaseFields.FROM, claim.from())
                            .field(LeaseFields.CLAIMED_AT, claim.claimedAt())
                            .close();
                }
                json.close();
            }
        }
        return json.end();
    }
}
