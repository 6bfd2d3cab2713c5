package com.acme.boot;

import cn.hutool.core.lang.Snowflake;
import cn.hutool.core.util.IdUtil;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;

/**
 * {@code BootApp <ids file> <count>}: the main class of a Spring Boot executable jar built by the
 * test. Hutool comes from a nested jar (BOOT-INF/lib), {@link BootIds} from BOOT-INF/classes:
 * neither is on the application class path, both are loaded by Spring Boot's class loader.
 */
public final class BootApp {

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[1]);
        Snowflake own = new Snowflake(3, 3);
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[0])))) {
            for (int i = 0; i < count; i++) {
                switch (i % 3) {
                    case 0: out.writeLong(IdUtil.getSnowflakeNextId()); break;
                    case 1: out.writeLong(own.nextId()); break;
                    default: out.writeLong(BootIds.next()); break;
                }
            }
        }
        System.out.println("LOADER " + BootApp.class.getClassLoader().getClass().getName());
        System.out.println("DONE " + count);
    }
}
