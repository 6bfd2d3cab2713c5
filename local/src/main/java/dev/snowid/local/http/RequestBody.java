package dev.snowid.local.http;

import java.io.ByteArrayOutputStream;
import java.util.Locale;

/**
 * A request body as it arrives, in pieces: by {@code Content-Length} or in chunks
 * ({@code Transfer-Encoding: chunked}), never more than {@code maxBytes}. Framing that could be
 * read two ways (both headers, two lengths, another transfer coding) is refused, so that no proxy
 * in front can see a different request than the handler does.
 */
final class RequestBody {

    /** The longest chunk-size line accepted. */
    private static final int MAX_LINE = 1024;
    /** The most bytes of trailers accepted (they are dropped). */
    private static final int MAX_TRAILERS = 8 * 1024;

    private enum State { DATA, SIZE_LINE, CHUNK, CHUNK_END, TRAILERS, DONE }

    private final int maxBytes;
    private final boolean chunked;
    private final ByteArrayOutputStream bytes;
    private State state;
    /** Bytes still to come of the body (Content-Length) or of the current chunk. */
    private long remaining;
    private final StringBuilder line = new StringBuilder();
    private int trailerBytes;

    private RequestBody(boolean chunked, long length, int maxBytes) {
        this.chunked = chunked;
        this.maxBytes = maxBytes;
        this.remaining = length;
        this.bytes = new ByteArrayOutputStream((int) Math.min(chunked ? 1024 : length, 64 * 1024));
        this.state = chunked ? State.SIZE_LINE : length == 0 ? State.DONE : State.DATA;
    }

    /** The body the head announces; refused when its framing is ambiguous or it is announced larger than {@code maxBytes}. */
    static RequestBody of(RequestHead head, int maxBytes) {
        String encoding = head.header("Transfer-Encoding");
        String length = head.header("Content-Length");
        if (encoding != null) {
            if (length != null) {
                throw Refusal.invalid("the request has both Content-Length and Transfer-Encoding; send one");
            }
            if (head.http10() || !encoding.trim().toLowerCase(Locale.ROOT).equals("chunked")) {
                throw Refusal.invalid("the only Transfer-Encoding understood is chunked, on HTTP/1.1");
            }
            return new RequestBody(true, 0, maxBytes);
        }
        if (length == null) {
            return new RequestBody(false, 0, maxBytes);
        }
        String first = null;
        for (String value : length.split(",", -1)) { // repeated headers arrive joined with commas
            String trimmed = value.trim();
            if (trimmed.isEmpty() || trimmed.length() > 18 || !trimmed.chars().allMatch(c -> c >= '0' && c <= '9')
                    || first != null && !first.equals(trimmed)) {
                throw Refusal.invalid("Content-Length must be one whole number of bytes");
            }
            first = trimmed;
        }
        long announced = Long.parseLong(first);
        if (announced > maxBytes) {
            throw tooLarge(maxBytes);
        }
        return new RequestBody(false, announced, maxBytes);
    }

    /** Whether there is nothing (more) to read. */
    boolean complete() {
        return state == State.DONE;
    }

    /**
     * The bytes a {@code Content-Length} body still needs, if {@code available} already holds
     * them all (so that it can be skipped without reading the connection); -1 otherwise.
     */
    long skippable(int available) {
        if (state == State.DONE) {
            return 0;
        }
        return state == State.DATA && remaining <= available ? remaining : -1;
    }

    /** Takes what it needs of {@code buffer[from, to)}; returns how many bytes it took. */
    int take(byte[] buffer, int from, int to) {
        int at = from;
        while (at < to && state != State.DONE) {
            switch (state) {
                case DATA, CHUNK -> {
                    int n = (int) Math.min(remaining, to - at);
                    if (bytes.size() + n > maxBytes) {
                        throw tooLarge(maxBytes);
                    }
                    bytes.write(buffer, at, n);
                    at += n;
                    remaining -= n;
                    if (remaining == 0) {
                        state = state == State.DATA ? State.DONE : State.CHUNK_END;
                    }
                }
                case SIZE_LINE -> {
                    String sizeLine = lineEndedBy(buffer[at++], MAX_LINE);
                    if (sizeLine != null) {
                        chunkSize(sizeLine);
                    }
                }
                case CHUNK_END -> {
                    String rest = lineEndedBy(buffer[at++], MAX_LINE);
                    if (rest != null) {
                        if (!rest.isEmpty()) {
                            throw Refusal.invalid("a chunk is longer than its size says");
                        }
                        state = State.SIZE_LINE;
                    }
                }
                case TRAILERS -> {
                    if (++trailerBytes > MAX_TRAILERS) {
                        throw Refusal.invalid("the chunked body's trailers are longer than " + MAX_TRAILERS + " bytes");
                    }
                    String trailer = lineEndedBy(buffer[at++], MAX_TRAILERS);
                    if (trailer != null && trailer.isEmpty()) {
                        state = State.DONE; // trailers are read and dropped
                    }
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
        return at - from;
    }

    byte[] bytes() {
        return bytes.toByteArray();
    }

    /** Adds one byte to the current line; when it ends the line (LF), the line without CR LF, else null. */
    private String lineEndedBy(byte b, int maxLength) {
        if (b == '\n') {
            int end = line.length() > 0 && line.charAt(line.length() - 1) == '\r' ? line.length() - 1 : line.length();
            String ended = line.substring(0, end);
            line.setLength(0);
            return ended;
        }
        if (line.length() >= maxLength) {
            throw Refusal.invalid("a line of the chunked body is longer than " + maxLength + " bytes");
        }
        line.append((char) (b & 0xff));
        return null;
    }

    private void chunkSize(String text) {
        int extension = text.indexOf(';');
        String hex = (extension >= 0 ? text.substring(0, extension) : text).trim();
        if (hex.isEmpty() || hex.length() > 8 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw Refusal.invalid("a chunk size is not a hexadecimal number");
        }
        long size = Long.parseLong(hex, 16);
        if (bytes.size() + size > maxBytes) {
            throw tooLarge(maxBytes);
        }
        remaining = size;
        state = size == 0 ? State.TRAILERS : State.CHUNK;
    }

    private static Refusal tooLarge(int maxBytes) {
        return new Refusal(413, "payload_too_large", "the request body is larger than " + maxBytes + " bytes, Lambda's limit");
    }
}
