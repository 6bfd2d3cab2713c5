package dev.snowid.spring.tests.app;

import dev.snowid.SnowflakeId;

/** A request body carrying a decoded ID: read by the app's Jackson from a string or a number. */
public class IdBody {

    private SnowflakeId id;

    public SnowflakeId getId() {
        return id;
    }

    public void setId(SnowflakeId id) {
        this.id = id;
    }
}
