package dev.snowid.agent.cli;

import dev.snowid.Slot;
import dev.snowid.protocol.PrintableText;
import dev.snowid.protocol.SlotMap;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The slot map drawn for a terminal: one row of 32 machines per datacenter, a cell per slot
 * ({@code #} held, {@code !} expiring, {@code .} free, blank outside the pool), the parts'
 * counts above and the busiest holders below. At most 32 rows and {@value #HOLDERS_SHOWN}
 * holders, so even a pool of all 1024 slots stays one screen.
 */
public final class SlotGrid {

    static final int HOLDERS_SHOWN = 8;
    private static final int LINE_WIDTH = 100;

    private SlotGrid() {
    }

    static String render(SlotMap map) {
        StringBuilder out = new StringBuilder();
        long now = map.now();
        out.append("slot pool at ").append(Instant.ofEpochMilli(now)).append(", leases of ").append(seconds(map.leaseMillis()))
                .append('\n');
        out.append(String.format("%-10s %5s %5s %5s  %s%n", "part", "slots", "held", "free", "earliest expiry"));
        char[] partOf = new char[Slot.COUNT];
        for (SlotMap.Part part : map.parts()) {
            out.append(String.format("%-10s %5d %5d %5d  %s%n", part.name(), part.size(), part.held(), part.free(),
                    part.earliestExpiry() == null ? "-" : "in " + seconds(part.earliestExpiry() - now)));
            for (Slot slot : part.slots()) {
                partOf[slot.index()] = Character.toUpperCase(part.name().isEmpty() ? '?' : part.name().charAt(0));
            }
        }
        char[] cells = new char[Slot.COUNT];
        for (SlotMap.Entry entry : map.leases()) {
            long left = entry.lease().expiresAt() - now;
            // A holder renews with half its lease left; under a quarter left it is late, or gone.
            cells[entry.lease().slot().index()] = left < map.leaseMillis() / 4 ? '!' : '#';
        }
        out.append("         machine 0         1         2         3\n");
        out.append("dc part          01234567890123456789012345678901\n");
        for (int datacenter = 0; datacenter <= Slot.MAX_DATACENTER; datacenter++) {
            StringBuilder row = new StringBuilder();
            StringBuilder parts = new StringBuilder();
            boolean inPool = false;
            for (int machine = 0; machine <= Slot.MAX_MACHINE; machine++) {
                int index = Slot.of(datacenter, machine).index();
                char part = partOf[index];
                if (part == 0) {
                    row.append(' ');
                    continue;
                }
                inPool = true;
                if (parts.indexOf(String.valueOf(part)) < 0) {
                    parts.append(parts.length() == 0 ? "" : "+").append(part);
                }
                row.append(cells[index] == 0 ? '.' : cells[index]);
            }
            if (inPool) {
                out.append(String.format("%2d %-4s          %s%n", datacenter, parts, rtrim(row)));
            }
        }
        out.append("# held  ! expiring (under a quarter of the lease left)  . free  ");
        for (SlotMap.Part part : map.parts()) {
            out.append(Character.toUpperCase(part.name().charAt(0))).append(' ').append(part.name()).append("  ");
        }
        out.setLength(out.length() - 2);
        out.append('\n');
        holders(map, out);
        return out.toString();
    }

    private static void holders(SlotMap map, StringBuilder out) {
        Map<String, List<Slot>> byHolder = new TreeMap<>();
        for (SlotMap.Entry entry : map.leases()) {
            // Escaped: a label written before the API refused unprintable ones must not reorder or break the lines.
            String holder = entry.lease().holder().isEmpty() ? "(no holder given)" : PrintableText.escaped(entry.lease().holder());
            byHolder.computeIfAbsent(holder, h -> new ArrayList<>()).add(entry.lease().slot());
        }
        List<Map.Entry<String, List<Slot>>> busiest = new ArrayList<>(byHolder.entrySet());
        Collections.sort(busiest, (a, b) -> a.getValue().size() != b.getValue().size()
                ? b.getValue().size() - a.getValue().size() : a.getKey().compareTo(b.getKey()));
        out.append('\n').append("holders: ").append(busiest.size()).append(busiest.size() == 1 ? " holder of " : " holders of ")
                .append(map.leases().size()).append(map.leases().size() == 1 ? " slot" : " slots").append('\n');
        Map<String, List<Slot>> shown = new LinkedHashMap<>();
        for (Map.Entry<String, List<Slot>> holder : busiest.subList(0, Math.min(HOLDERS_SHOWN, busiest.size()))) {
            shown.put(holder.getKey(), holder.getValue());
        }
        for (Map.Entry<String, List<Slot>> holder : shown.entrySet()) {
            StringBuilder line = new StringBuilder(String.format("%5d  %-40s ", holder.getValue().size(), cut(holder.getKey(), 40)));
            for (Slot slot : holder.getValue()) {
                String next = " " + slot;
                if (line.length() + next.length() > LINE_WIDTH - 2) {
                    line.append(" …");
                    break;
                }
                line.append(next);
            }
            out.append(line).append('\n');
        }
        if (busiest.size() > shown.size()) {
            out.append("    … and ").append(busiest.size() - shown.size()).append(" more holders\n");
        }
    }

    private static String seconds(long millis) {
        return (millis + 999) / 1000 + " s";
    }

    private static String cut(String text, int width) {
        String oneLine = text.replaceAll("[\\p{Cntrl}]", "?"); // a holder is free text: no escape sequences to the terminal
        return oneLine.length() <= width ? oneLine : oneLine.substring(0, width - 1) + "…";
    }

    private static String rtrim(StringBuilder row) {
        int end = row.length();
        while (end > 0 && row.charAt(end - 1) == ' ') {
            end--;
        }
        return row.substring(0, end);
    }
}
