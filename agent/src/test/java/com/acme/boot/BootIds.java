package com.acme.boot;

/** The application's own ID method, in a Spring Boot jar's BOOT-INF/classes. */
public final class BootIds {

    private BootIds() {
    }

    public static long next() {
        System.out.println("ORIGINAL-BODY-RAN BootIds.next");
        return -1;
    }
}
