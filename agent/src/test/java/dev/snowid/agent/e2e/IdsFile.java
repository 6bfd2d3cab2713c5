package dev.snowid.agent.e2e;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the raw longs a fixture app wrote. */
final class IdsFile {

    private IdsFile() {
    }

    static long[] read(Path file) throws IOException {
        long count = Files.size(file) / Long.BYTES;
        long[] ids = new long[(int) count];
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = in.readLong();
            }
        }
        return ids;
    }
}
