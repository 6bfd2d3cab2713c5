package dev.snowid.protocol.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Writes one JSON object, field by field: jackson-core's generator with snowid's escaping
 * rules ({@link JsonEscapes}). All JSON snowid writes goes through here: the function's answers,
 * log lines and metric records, the runner's proxy responses, the clients' lease bodies and audit
 * lines, the starter's error answers. Nested objects and arrays are
 * opened and closed with {@link #object(String)}, {@link #array(String)} and {@link #close()}.
 */
public final class JsonWriter {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT)
            .build();

    private final StringWriter out;
    private final JsonEscapes escapes = new JsonEscapes();
    private final JsonGenerator generator;

    public JsonWriter() {
        this(128);
    }

    /** @param capacity the expected length, so that large answers (4,096 IDs) are not copied as they grow */
    public JsonWriter(int capacity) {
        out = new StringWriter(capacity);
        try {
            generator = FACTORY.createGenerator(out);
            generator.setCharacterEscapes(escapes);
            generator.writeStartObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public JsonWriter field(String name, String value) {
        try {
            name(name);
            string(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    public JsonWriter field(String name, long value) {
        try {
            name(name);
            generator.writeNumber(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    public JsonWriter field(String name, boolean value) {
        try {
            name(name);
            generator.writeBoolean(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A number, or {@code null} when absent. */
    public JsonWriter field(String name, Long value) {
        return value == null ? nullField(name) : field(name, value.longValue());
    }

    private JsonWriter nullField(String name) {
        try {
            name(name);
            generator.writeNull();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** An already-written JSON value (a number in a chosen format, an object written elsewhere). */
    public JsonWriter rawField(String name, CharSequence json) {
        try {
            name(name);
            generator.writeRawValue(json.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** IDs as an array of decimal strings: JavaScript loses precision above 2^53. */
    public JsonWriter idStrings(String name, long[] ids) {
        try {
            name(name);
            generator.writeStartArray(ids, ids.length);
            for (long id : ids) {
                generator.writeString(Long.toString(id));
            }
            generator.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** An object of string values. */
    public JsonWriter stringMap(String name, Map<String, String> values) {
        object(name);
        for (Map.Entry<String, String> value : values.entrySet()) { // no lambdas: the agent's start-up path bootstraps none
            field(value.getKey(), value.getValue());
        }
        return close();
    }

    /** An array of strings. */
    public JsonWriter stringArray(String name, List<String> values) {
        array(name);
        for (String value : values) {
            element(value);
        }
        return close();
    }

    /** Opens an object field; {@link #close()} ends it. */
    public JsonWriter object(String name) {
        try {
            name(name);
            generator.writeStartObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Opens an array field; {@link #close()} ends it. */
    public JsonWriter array(String name) {
        try {
            name(name);
            generator.writeStartArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Opens an object as the next element of the open array. */
    public JsonWriter objectElement() {
        try {
            generator.writeStartObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Opens an array as the next element of the open array. */
    public JsonWriter arrayElement() {
        try {
            generator.writeStartArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A string as the next element of the open array. */
    public JsonWriter element(String value) {
        try {
            string(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Ends the innermost open object or array. */
    public JsonWriter close() {
        try {
            if (generator.getOutputContext().inArray()) {
                generator.writeEndArray();
            } else {
                generator.writeEndObject();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Ends the object and gives its text. */
    public String end() {
        try {
            generator.writeEndObject();
            generator.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private void name(String name) throws IOException {
        boolean lone = JsonEscapes.hasLoneSurrogate(name);
        escapes.escapeSurrogates = lone;
        generator.writeFieldName(name);
        escapes.escapeSurrogates = false;
    }

    private void string(String value) throws IOException {
        if (value == null) {
            generator.writeNull();
            return;
        }
        escapes.escapeSurrogates = JsonEscapes.hasLoneSurrogate(value);
        generator.writeString(value);
        escapes.escapeSurrogates = false;
    }
}
