package com.acme.legacy;

import java.util.function.Supplier;

/**
 * {@code TypedApp <ids file> <rounds>}: calls each method of {@link TypedIds} and
 * {@link LongIdSupplier} (directly and through {@code Supplier}), turns what they return into
 * longs as a caller would (a cast, {@code longValue()}, parsing), and prints the runtime class
 * each method returned.
 */
public final class TypedApp {

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[1]);
        Supplier<Long> viaInterface = new LongIdSupplier();
        LongIdSupplier direct = new LongIdSupplier();
        long[] ids = new long[rounds * 8];
        int n = 0;
        for (int i = 0; i < rounds; i++) {
            ids[n++] = TypedIds.nextNumber().longValue();
            ids[n++] = (Long) TypedIds.nextComparable();
            ids[n++] = (Long) TypedIds.nextObject();
            ids[n++] = Long.parseLong((String) TypedIds.nextObjectAsString());
            ids[n++] = (Long) TypedIds.nextSerializable();
            ids[n++] = Long.parseLong(TypedIds.nextChars().toString());
            ids[n++] = viaInterface.get();
            ids[n++] = direct.get();
        }
        System.out.println("TYPES " + TypedIds.nextNumber().getClass().getSimpleName() + " " + TypedIds.nextComparable().getClass().getSimpleName()
                + " " + TypedIds.nextObject().getClass().getSimpleName() + " " + TypedIds.nextObjectAsString().getClass().getSimpleName()
                + " " + TypedIds.nextSerializable().getClass().getSimpleName() + " " + TypedIds.nextChars().getClass().getSimpleName());
        IdsOutput.write(args[0], ids);
        System.out.println("DONE " + ids.length);
    }
}
