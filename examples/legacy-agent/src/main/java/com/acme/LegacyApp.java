package com.acme;

import cn.hutool.core.lang.Snowflake;
import cn.hutool.core.util.IdUtil;

/** Prints an ID from Hutool's Snowflake and one from its own Ids.next(): run it with and without the agent. */
public final class LegacyApp {

    public static void main(String[] args) {
        Snowflake hutool = IdUtil.getSnowflake(1, 1); // worker 1 of datacenter 1: the same in every copy of the app
        System.out.println(hutool.nextId() + " " + Ids.next());
    }
}
