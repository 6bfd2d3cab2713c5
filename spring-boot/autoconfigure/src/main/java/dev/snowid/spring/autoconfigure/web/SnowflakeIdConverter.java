package dev.snowid.spring.autoconfigure.web;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import org.springframework.core.convert.converter.Converter;

/**
 * {@code @PathVariable SnowflakeId id} and {@code @RequestParam SnowflakeId id}: the decimal text
 * decoded with the client's epoch. Spring Boot adds every {@link Converter} bean to the MVC and
 * WebFlux conversion services. A malformed ID throws {@link dev.snowid.InvalidIdException}, which
 * {@link IdAnswer} turns into a 400.
 */
public final class SnowflakeIdConverter implements Converter<String, SnowflakeId> {

    private final SnowflakeCodec codec;

    public SnowflakeIdConverter(SnowflakeCodec codec) {
        this.codec = codec;
    }

    @Override
    public SnowflakeId convert(String text) {
        return codec.parse(text.trim());
    }
}
