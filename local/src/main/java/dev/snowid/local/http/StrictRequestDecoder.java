package dev.snowid.local.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Netty's request decoder, with each head read strictly first ({@link HeadFrame},
 * {@link RequestHead}, {@link BodyFraming}): a head this server cannot read one way only
 * becomes a {@link Refusal}, and every byte after it is dropped. A head that passes goes on as a
 * {@link ReadHead}; Netty then reads the body (by length, or chunk by chunk) as {@code HttpContent}s.
 */
final class StrictRequestDecoder extends HttpRequestDecoder {

    private final int maxBodyBytes;
    /** Whether the next bytes begin a request (the last one's body is all read). */
    private boolean atHead = true;
    private boolean refused;

    StrictRequestDecoder(int maxBodyBytes) {
        // Netty's own limits sit above the head's, and its header checks are off: RequestHead read the same lines first,
        // more strictly. Its framing checks stay on behind ours.
        super(new HttpDecoderConfig().setMaxInitialLineLength(LocalHttpServer.MAX_HEAD_BYTES + 1)
                .setMaxHeaderSize(LocalHttpServer.MAX_HEAD_BYTES + 1)
                .setValidateHeaders(false)
                .setAllowDuplicateContentLengths(true) // "Content-Length: 2, 2" is one length, as it always was here
                .setStrictLineParsing(false) // a bare LF ends a line, as RFC 9112 lets a server accept and this one did
                .setUseRfc9112TransferEncoding(true));
        this.maxBodyBytes = maxBodyBytes;
    }

    /** Whether bytes read are waiting to be decoded (a request pipelined behind the one in hand). */
    boolean holdsBytes() {
        return actualReadableBytes() > 0;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        RequestHead head = null;
        long announced = 0;
        if (atHead) {
            try {
                List<byte[]> lines = HeadFrame.lines(in);
                if (lines == null) {
                    return; // not all in yet: Netty reads nothing of a head before it is checked
                }
                head = RequestHead.parse(lines);
                announced = BodyFraming.announced(head, maxBodyBytes);
            } catch (Refusal refusal) {
                refused = true;
                in.skipBytes(in.readableBytes());
                out.add(refusal);
                return;
            }
        }
        int before = out.size();
        super.decode(ctx, in, out);
        for (int i = before; i < out.size(); i++) {
            Object message = out.get(i);
            if (message instanceof HttpRequest request) {
                atHead = false;
                boolean bodyIn = announced != BodyFraming.CHUNKED && in.readableBytes() >= announced;
                out.set(i, new ReadHead(head, request.decoderResult().cause(), bodyIn));
            }
            if (message instanceof LastHttpContent) {
                atHead = true;
            }
        }
    }

    /**
     * A head as read, before its body.
     *
     * @param failure what Netty refused in it (null: nothing)
     * @param bodyIn  whether its whole body came with it (by Content-Length): a head answered
     *                at once can then keep its connection, the body skipped
     */
    record ReadHead(RequestHead head, Throwable failure, boolean bodyIn) {
    }
}
