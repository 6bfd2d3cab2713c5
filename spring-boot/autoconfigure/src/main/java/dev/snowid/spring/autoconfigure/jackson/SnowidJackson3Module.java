package dev.snowid.spring.autoconfigure.jackson;

import com.fasterxml.jackson.annotation.JsonFormat;
import dev.snowid.InvalidIdException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.integrations.hibernate.SnowidId;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;
import tools.jackson.databind.module.SimpleModule;

/**
 * Jackson 3 ({@code tools.jackson.databind}, Spring Boot 4's): the same as {@link SnowidJackson2Module}.
 * {@link SnowflakeId} written as a JSON string and read from a string or an integer; {@link SnowidId}
 * properties written as strings with Jackson's own {@code @JsonFormat(shape = STRING)}.
 */
public final class SnowidJackson3Module extends SimpleModule {

    private static final long serialVersionUID = 1L;

    public SnowidJackson3Module(SnowflakeCodec codec) {
        super("snowid");
        addSerializer(SnowflakeId.class, new Writer());
        addDeserializer(SnowflakeId.class, new Reader(codec));
    }

    @Override
    public void setupModule(SetupContext context) {
        super.setupModule(context);
        context.insertAnnotationIntrospector(new SnowidIdAsString());
    }

    static final class Writer extends ValueSerializer<SnowflakeId> {
        @Override
        public void serialize(SnowflakeId id, JsonGenerator out, SerializationContext context) {
            out.writeString(Long.toString(id.value()));
        }
    }

    static final class Reader extends ValueDeserializer<SnowflakeId> {
        private final SnowflakeCodec codec;

        Reader(SnowflakeCodec codec) {
            this.codec = codec;
        }

        @Override
        public SnowflakeId deserialize(JsonParser in, DeserializationContext context) {
            JsonToken token = in.currentToken();
            try {
                if (token == JsonToken.VALUE_STRING) {
                    return SnowflakeIdReading.fromString(codec, in.getString());
                }
                if (token == JsonToken.VALUE_NUMBER_INT && in.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                    return SnowflakeIdReading.fromInteger(codec, in.getLongValue());
                }
            } catch (InvalidIdException e) {
                return context.reportInputMismatch(this, "%s", e.getMessage());
            }
            return context.reportInputMismatch(this, "%s is not an ID: %s", in.getValueAsString(), SnowflakeIdReading.ALLOWED);
        }

        @Override
        public Class<?> handledType() {
            return SnowflakeId.class;
        }
    }

    static final class SnowidIdAsString extends NopAnnotationIntrospector {
        private static final long serialVersionUID = 1L;

        @Override
        public JsonFormat.Value findFormat(MapperConfig<?> config, Annotated member) {
            return member.hasAnnotation(SnowidId.class) ? JsonFormat.Value.forShape(JsonFormat.Shape.STRING) : null;
        }
    }
}
