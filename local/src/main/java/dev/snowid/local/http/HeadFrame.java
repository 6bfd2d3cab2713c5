package dev.snowid.local.http;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a request's head ends in the bytes read so far, and its lines. Netty's decoder reads a
 * request line with two spaces, joins a folded header line to the one before and trims a
 * control character off a value's end, unseen; this server refuses each, so it reads the head's
 * lines itself ({@link RequestHead}) before Netty reads the same bytes for their framing.
 */
final class HeadFrame {

    private HeadFrame() {
    }

    /**
     * The lines of the head that starts at {@code in}'s reader index (request line and headers,
     * without CR LF), once the empty line that ends it is in; null before. Empty lines before the
     * request line are skipped (RFC 9112), as Netty skips them; nothing is consumed.
     */
    static List<byte[]> lines(ByteBuf in) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        while (start < end && (in.getByte(start) == '\r' || in.getByte(start) == '\n')) {
            start++;
        }
        int scanEnd = (int) Math.min(end, (long) start + LocalHttpServer.MAX_HEAD_BYTES + 1);
        for (int i = start; i < scanEnd; i++) {
            if (in.getByte(i) != '\n') {
                continue;
            }
            int previous = i - 1;
            if (previous > start && in.getByte(previous) == '\r') {
                previous--;
            }
            if (previous > start && in.getByte(previous) == '\n') {
                return split(in, start, i + 1);
            }
        }
        if (end - start >= LocalHttpServer.MAX_HEAD_BYTES) {
            throw in.indexOf(start, scanEnd, (byte) '\n') >= 0
                    ? new Refusal(431, "headers_too_large", "the request's headers are longer than " + LocalHttpServer.MAX_HEAD_BYTES + " bytes")
                    : new Refusal(414, "uri_too_long", "the request line is longer than " + LocalHttpServer.MAX_HEAD_BYTES + " bytes");
        }
        return null;
    }

    private static List<byte[]> split(ByteBuf in, int from, int to) {
        List<byte[]> lines = new ArrayList<>();
        int lineStart = from;
        for (int i = from; i < to; i++) {
            if (in.getByte(i) == '\n') {
                int lineEnd = i > lineStart && in.getByte(i - 1) == '\r' ? i - 1 : i;
                if (lineEnd > lineStart) {
                    byte[] line = new byte[lineEnd - lineStart];
                    in.getBytes(lineStart, line);
                    lines.add(line);
                }
                lineStart = i + 1;
            }
        }
        return lines;
    }
}
