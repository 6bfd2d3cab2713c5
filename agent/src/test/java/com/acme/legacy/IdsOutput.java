package com.acme.legacy;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;

/** Fixture apps write the IDs they got as raw longs into a file the test reads back. */
final class IdsOutput {

    private IdsOutput() {
    }

    static void write(String file, long[]... batches) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(file)))) {
            for (long[] batch : batches) {
                for (long id : batch) {
                    out.writeLong(id);
                }
            }
        }
    }
}
