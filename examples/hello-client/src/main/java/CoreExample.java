import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.SnowflakeId;

public class CoreExample {
    public static void main(String[] args) {
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(Slot.of(7, 13))
                .window(LeaseWindow.UNBOUNDED)   // a fixed node you vouch for; leases give a bounded window
                .build();
        long id = generator.nextId();
        long[] batch = generator.nextIds(4096);  // one reservation per millisecond touched
        SnowflakeId decoded = SnowflakeCodec.TWITTER.parse("1724551110457221119");
        System.out.println(id + " " + batch.length + " " + decoded.slot() + " " + decoded.sequence());
    }
}
