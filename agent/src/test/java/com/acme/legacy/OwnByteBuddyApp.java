package com.acme.legacy;

import static net.bytebuddy.matcher.ElementMatchers.named;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.FixedValue;

/**
 * {@code OwnByteBuddyApp <ids file>}: an application that uses its own Byte Buddy (an older
 * version, on its class path) next to the agent's, then calls a redirected method.
 */
public final class OwnByteBuddyApp {

    public static void main(String[] args) throws Exception {
        Class<?> own = ByteBuddy.class;
        System.out.println("APP-BYTEBUDDY from " + own.getProtectionDomain().getCodeSource().getLocation());
        Object made = new ByteBuddy()
                .subclass(Object.class)
                .method(named("toString")).intercept(FixedValue.value("made by the app's own Byte Buddy"))
                .make()
                .load(OwnByteBuddyApp.class.getClassLoader())
                .getLoaded()
                .getDeclaredConstructor()
                .newInstance();
        System.out.println("APP-MADE " + made);
        long[] ids = new long[1000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = LegacyIds.nextLong();
        }
        IdsOutput.write(args[0], ids);
        System.out.println("DONE " + ids.length);
    }
}
