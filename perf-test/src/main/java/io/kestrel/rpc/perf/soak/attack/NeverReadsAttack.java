package io.kestrel.rpc.perf.soak.attack;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.function.LongFunction;

/**
 * The slow reader and the amplifier: a connection with a small receive buffer that pipelines
 * requests and never reads a byte. The provider's unsent answers pile up beyond its write buffer,
 * it stops reading the connection, and closes it after the write-stall timeout; the attacker notices
 * when a write fails, and reconnects.
 */
final class NeverReadsAttack extends Attack {
    private final byte[] first;
    private final byte[] body;
    private final int batch;
    private final LongFunction<byte[]> frame;

    private NeverReadsAttack(AttackKind kind, AttackTarget target, byte[] first, byte[] body, int batch) {
        this(kind, target, first, body, batch, null);
    }

    private NeverReadsAttack(AttackKind kind, AttackTarget target, byte[] first, byte[] body, int batch,
            LongFunction<byte[]> frame) {
        super(kind, target);
        this.first = first;
        this.body = body;
        this.batch = batch;
        this.frame = frame;
    }

    /**
     * A per-port flood (heartbeats, unknown-method calls): whole frames of {@code frames} (by request id),
     * {@code batch} per write.
     */
    static NeverReadsAttack flood(AttackKind kind, AttackTarget target, LongFunction<byte[]> frames, int batch) {
        return new NeverReadsAttack(kind, target, null, null, batch, frames);
    }

    /** Echo requests of {@link AttackPlan#SLOW_READER_CHARS} characters, one frame per write. */
    static NeverReadsAttack slowReader(AttackTarget target) {
        byte[] arg = target.encode("s".repeat(AttackPlan.SLOW_READER_CHARS));
        byte[] first = RawFrames.request(target.serializationId(), 1, true,
                RawFrames.requestBody(0, target.echoDescriptor(), 10_000, null, arg));
        return new NeverReadsAttack(AttackKind.SLOW_READER, target, first,
                RawFrames.requestBody(0, null, 10_000, null, arg), 1);
    }

    /**
     * Tiny requests naming method reference 42, which the connection never defined: each is answered
     * BAD_REQUEST with a message several times its size. Written 512 frames per write.
     */
    static NeverReadsAttack amplify(AttackTarget target) {
        byte[] body = RawFrames.requestBody(42, null, 10_000, null, target.encode("?"));
        return new NeverReadsAttack(AttackKind.AMPLIFY, target, null, body, 512);
    }

    @Override
    void cycle() throws IOException {
        Socket s = connect(true, null);
        long openedAt = System.nanoTime();
        try {
            OutputStream out = s.getOutputStream();
            long id = 1;
            if (first != null) {
                out.write(first);
                requestWritten();
                id++;
            }
            byte[] frames = frame != null ? null : new byte[batch * (RawFrames.HEADER_BYTES + body.length)];
            java.io.ByteArrayOutputStream framed = new java.io.ByteArrayOutputStream();
            while (running) {
                if (frame != null) {
                    framed.reset();
                    for (int i = 0; i < batch; i++) {
                        framed.writeBytes(frame.apply(id++));
                    }
                    framed.writeTo(out);
                } else if (batch == 1) {
                    out.write(RawFrames.requestHeader(target.serializationId(), id++, body.length, false));
                    out.write(body);
                } else {
                    int at = 0;
                    for (int i = 0; i < batch; i++) {
                        byte[] header = RawFrames.requestHeader(target.serializationId(), id++, body.length, false);
                        System.arraycopy(header, 0, frames, at, header.length);
                        System.arraycopy(body, 0, frames, at + header.length, body.length);
                        at += header.length + body.length;
                    }
                    out.write(frames);
                }
                requestsWritten(batch);
            }
            release(s);
        } catch (IOException closed) {
            closedByProvider(s, openedAt);
        }
    }

    @Override
    boolean met(AttackResult r) {
        // the per-port floods are judged by the well-behaved client (a short window may end before the stall close)
        return frame != null || r.closedByProvider() > 0;
    }

    @Override
    String note() {
        return "never reads (receive buffer 4 KiB); " + (kind == AttackKind.SLOW_READER
                ? "echo of " + AttackPlan.SLOW_READER_CHARS / 1024 + " Ki characters per request"
                : kind == AttackKind.AMPLIFY ? "undefined method reference 42, 512 frames per write"
                : batch + " frames per write");
    }
}
