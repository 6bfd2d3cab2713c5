package dev.snowid.spring.autoconfigure.jackson;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.NopAnnotationIntrospector;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.snowid.InvalidIdException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.integrations.hibernate.SnowidId;
import java.io.IOException;

/**
 * Jackson 2 ({@code com.fasterxml.jackson.databind}): {@link SnowflakeId} written as a JSON
 * string of its decimal value and read from a string or an integer; a {@code long}/{@code Long}
 * marked {@link SnowidId} written as a string too, with Jackson's own
 * {@code @JsonFormat(shape = STRING)}, which this module applies to every such property.
 * A browser's number holds 53 bits; a Snowflake ID has 63.
 */
public final class SnowidJackson2Module extends SimpleModule {

    private static final long serialVersionUID = 1L;

    public SnowidJackson2Module(SnowflakeCodec codec) {
        super("snowid");
        addSerializer(SnowflakeId.class, new Writer());
        addDeserializer(SnowflakeId.class, new Reader(codec));
    }

    @Override
    public void setupModule(SetupContext context) {
        super.setupModule(context);
        context.insertAnnotationIntrospector(new SnowidIdAsString());
    }

    static final class Writer extends JsonSerializer<SnowflakeId> {
        @Override
        public void serialize(SnowflakeId id, JsonGenerator out, SerializerProvider serializers) throws IOException {
            out.writeString(Long.toString(id.value()));
        }
    }

    static final class Reader extends JsonDeserializer<SnowflakeId> {
        private final SnowflakeCodec codec;

        Reader(SnowflakeCodec codec) {
            this.codec = codec;
        }

        @Override
        public SnowflakeId deserialize(JsonParser in, DeserializationContext context) throws IOException {
            JsonToken token = in.currentToken();
            try {
                if (token == JsonToken.VALUE_STRING) {
                    return SnowflakeIdReading.fromString(codec, in.getText());
                }
                if (token == JsonToken.VALUE_NUMBER_INT && in.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                    return SnowflakeIdReading.fromInteger(codec, in.getLongValue());
                }
            } catch (InvalidIdException e) {
                return context.reportInputMismatch(this, "%s", e.getMessage());
            }
            return context.reportInputMismatch(this, "%s is not an ID: %s", in.getText(), SnowflakeIdReading.ALLOWED);
        }

        @Override
        public Class<?> handledType() {
            return SnowflakeId.class;
        }
    }

    static final class SnowidIdAsString extends NopAnnotationIntrospector {
        private static final long serialVersionUID = 1L;

        @Override
        public JsonFormat.Value findFormat(Annotated member) {
            return member.hasAnnotation(SnowidId.class) ? JsonFormat.Value.forShape(JsonFormat.Shape.STRING) : null;
        }
    }
}
