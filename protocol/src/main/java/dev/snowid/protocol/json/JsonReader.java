package dev.snowid.protocol.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.snowid.protocol.json.JsonValue.JsonArray;
import dev.snowid.protocol.json.JsonValue.JsonBoolean;
import dev.snowid.protocol.json.JsonValue.JsonNull;
import dev.snowid.protocol.json.JsonValue.JsonNumber;
import dev.snowid.protocol.json.JsonValue.JsonObject;
import dev.snowid.protocol.json.JsonValue.JsonString;
import dev.snowid.protocol.json.MalformedJson.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads exactly one JSON value, stricter than a parser's defaults: the text must be UTF-8
 * (RFC 8259 for JSON between systems), a repeated key or anything after the value is refused,
 * numbers keep the literal that was written, and {@link Limits} bound what hostile input can
 * cost. jackson-core's streaming parser does the tokenizing; its exceptions end here, so a caller
 * only ever sees a {@link MalformedJson} worded by us. The limits are checked here, not through
 * jackson-core's read constraints (2.15 and later): the client runs inside applications that
 * bring their own, often older, jackson-core, and any from 2.10 on serves.
 */
public final class JsonReader {

    /**
     * How much one read may take. Strings and keys share a length limit; a document counts
     * characters. Exceeding any of them is refused before it costs more.
     */
    public static final class Limits {

        private final int maxDepth;
        private final int maxStringLength;
        private final int maxNumberLength;
        private final int maxDocumentLength;

        public Limits(int maxDepth, int maxStringLength, int maxNumberLength, int maxDocumentLength) {
            this.maxDepth = maxDepth;
            this.maxStringLength = maxStringLength;
            this.maxNumberLength = maxNumberLength;
            this.maxDocumentLength = maxDocumentLength;
        }

        public int maxDepth() {
            return maxDepth;
        }

        String describe() {
            return "at most " + maxDocumentLength + " characters, " + maxDepth + " levels of nesting, strings of at most "
                    + maxStringLength + " characters, numbers of at most " + maxNumberLength + " digits";
        }
    }

    private static final JsonValue TRUE = new JsonBoolean(true);
    private static final JsonValue FALSE = new JsonBoolean(false);
    private static final JsonValue NULL = new JsonNull();

    private final Limits limits;
    private final JsonFactory factory;

    public JsonReader(Limits limits) {
        this.limits = limits;
        this.factory = JsonFactory.builder()
                // Keys come from clients: none is interned or kept in a table shared across requests.
                .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                .build();
    }

    public JsonValue read(byte[] utf8) throws MalformedJson {
        return read(decode(utf8));
    }

    /** As {@link #read(byte[])}, for text already decoded; a leading byte order mark is dropped here too. */
    public JsonValue read(String text) throws MalformedJson {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        if (text.length() > limits.maxDocumentLength) {
            throw MalformedJson.overLimits(limits.describe());
        }
        try (JsonParser parser = factory.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw MalformedJson.of(Reason.EMPTY);
            }
            JsonValue value = value(parser, first, 1);
            requireEnd(parser);
            return value;
        } catch (IOException e) {
            throw MalformedJson.of(Reason.NOT_JSON);
        }
    }

    /** {@code depth}: the nesting level {@code token} opens, if it opens one (the outermost value is at 1). */
    private JsonValue value(JsonParser parser, JsonToken token, int depth) throws IOException, MalformedJson {
        if (token == null) {
            throw MalformedJson.of(Reason.NOT_JSON); // the text ended inside a value
        }
        switch (token) {
            case START_OBJECT: return object(parser, within(depth, limits.maxDepth));
            case START_ARRAY: return array(parser, within(depth, limits.maxDepth));
            case VALUE_STRING: return new JsonString(within(parser.getText(), limits.maxStringLength));
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT: return new JsonNumber(within(parser.getText(), limits.maxNumberLength));
            case VALUE_TRUE: return TRUE;
            case VALUE_FALSE: return FALSE;
            case VALUE_NULL: return NULL;
            default: throw MalformedJson.of(Reason.NOT_JSON);
        }
    }

    /** Recursion is bounded: {@link #value} refuses to go deeper than {@link Limits#maxDepth()}. */
    private JsonValue object(JsonParser parser, int depth) throws IOException, MalformedJson {
        Map<String, JsonValue> fields = new LinkedHashMap<>();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
            if (token != JsonToken.FIELD_NAME) {
                throw MalformedJson.of(Reason.NOT_JSON);
            }
            String name = within(parser.currentName(), limits.maxStringLength);
            if (fields.containsKey(name)) {
                throw MalformedJson.repeatedName(name);
            }
            fields.put(name, value(parser, parser.nextToken(), depth + 1));
        }
        return new JsonObject(Collections.unmodifiableMap(fields));
    }

    private JsonValue array(JsonParser parser, int depth) throws IOException, MalformedJson {
        List<JsonValue> items = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            items.add(value(parser, token, depth + 1));
        }
        return new JsonArray(Collections.unmodifiableList(items));
    }

    private int within(int depth, int maxDepth) throws MalformedJson {
        if (depth > maxDepth) {
            throw MalformedJson.overLimits(limits.describe());
        }
        return depth;
    }

    private String within(String text, int maxLength) throws MalformedJson {
        if (text.length() > maxLength) {
            throw MalformedJson.overLimits(limits.describe());
        }
        return text;
    }

    private void requireEnd(JsonParser parser) throws MalformedJson {
        JsonToken after;
        try {
            after = parser.nextToken();
        } catch (IOException e) {
            throw MalformedJson.of(Reason.TEXT_AFTER_VALUE);
        }
        if (after != null) {
            throw MalformedJson.of(Reason.MORE_THAN_ONE_VALUE);
        }
    }

    /**
     * The JDK's decoder refuses malformed UTF-8 (its default action), so the parser never guesses
     * an encoding. A leading byte order mark is dropped, as RFC 8259 lets a reader do: some tools send one.
     */
    private static String decode(byte[] utf8) throws MalformedJson {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(utf8)).toString();
        } catch (CharacterCodingException e) {
            throw MalformedJson.of(Reason.NOT_UTF8);
        }
    }
}
