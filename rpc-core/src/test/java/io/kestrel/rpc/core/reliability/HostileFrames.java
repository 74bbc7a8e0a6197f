package io.kestrel.rpc.core.reliability;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded generator of hostile frames. Most keep a valid magic and version, so the server keeps
 * the connection open and has to parse a body full of random flags, serialization ids, statuses,
 * request ids, method references, descriptors, varints, attachments and argument bytes; a minority
 * breaks the stream (bad magic or version, negative length, truncation, raw garbage, a huge length
 * claim that would swallow everything after it) and the connection must be replaced.
 */
final class HostileFrames {
    /** What the sender must do after writing the frame. */
    enum After { KEEP, CLOSE }

    /** The frame kinds, with their weight in a thousand. */
    enum Kind {
        DEFINE(250, After.KEEP), REUSE(230, After.KEEP), RANDOM_BODY(136, After.KEEP), VARINT_EDGE(80, After.KEEP),
        ATTACHMENTS(80, After.KEEP), RESPONSE(100, After.KEEP), EVENT(100, After.KEEP),
        OVERSIZED_SENT(3, After.KEEP), OVERSIZED_CLAIM(4, After.CLOSE), BAD_MAGIC(3, After.CLOSE),
        BAD_VERSION(3, After.CLOSE), NEGATIVE_LENGTH(3, After.CLOSE), TRUNCATED(4, After.CLOSE),
        GARBAGE(4, After.CLOSE);

        final int weight;
        final After after;

        Kind(int weight, After after) {
            this.weight = weight;
            this.after = after;
        }
    }

    private static final Kind[] TABLE = new Kind[1000];

    static {
        int i = 0;
        for (Kind k : Kind.values()) {
            for (int w = 0; w < k.weight; w++) {
                TABLE[i++] = k;
            }
        }
        if (i != TABLE.length) {
            throw new IllegalStateException("kind weights add up to " + i + ", not 1000");
        }
    }

    private final SplittableRandom rnd;
    private final int payloadLimit;
    private final byte[] serializationIds;
    /** Descriptors of real, harmless methods (never sleep or blob: their argument sizes the work). */
    private final List<String> realDescriptors;
    /** Valid argument encodings in each serialization, to mutate. */
    private final List<byte[]> validArguments;

    HostileFrames(long seed, int payloadLimit, byte[] serializationIds, List<String> realDescriptors,
            List<byte[]> validArguments) {
        this.rnd = new SplittableRandom(seed);
        this.payloadLimit = payloadLimit;
        this.serializationIds = serializationIds;
        this.realDescriptors = realDescriptors;
        this.validArguments = validArguments;
    }

    /** Appends one frame of a random kind to {@code out} and returns its kind. */
    Kind next(FrameBytes out) {
        Kind kind = TABLE[rnd.nextInt(TABLE.length)];
        int start = out.size();
        switch (kind) {
            case DEFINE -> request(out, true, rnd.nextInt(8) == 0 ? randomMethodRef() : rnd.nextInt(16), descriptor());
            case REUSE -> request(out, false, rnd.nextInt(8) == 0 ? randomMethodRef() : rnd.nextInt(16), null);
            case RANDOM_BODY -> {
                out.header(1, randomFlags(), serializationId(), rnd.nextInt(256), rnd.nextLong(), 0);
                out.raw(randomBytes(rnd.nextInt(300)));
                out.finishFrame(start);
            }
            case VARINT_EDGE -> varintEdge(out, start);
            case ATTACHMENTS -> attachments(out, start);
            case RESPONSE -> {
                int flags = randomFlags() & ~0x01; // no request bit: a stray response
                out.header(1, flags, serializationId(), rnd.nextInt(256), rnd.nextLong(), 0);
                out.raw(randomBytes(rnd.nextInt(64)));
                out.finishFrame(start);
            }
            case EVENT -> {
                int flags = 0x04 | (rnd.nextBoolean() ? 0x01 : 0) | (rnd.nextBoolean() ? 0x02 : 0);
                out.header(1, flags, rnd.nextInt(256), rnd.nextInt(256), rnd.nextLong(), 0);
                out.raw(randomBytes(rnd.nextInt(4) == 0 ? rnd.nextInt(100) : 0));
                out.finishFrame(start);
            }
            case OVERSIZED_SENT -> {
                // over the limit by up to 64 KiB, and the body really follows: it must be skipped, not buffered
                int length = payloadLimit + 1 + rnd.nextInt(64 * 1024);
                out.header(1, 0x03, serializationId(), 0, rnd.nextLong(), length);
                out.raw(randomBytes(length));
            }
            case OVERSIZED_CLAIM -> {
                int length = payloadLimit + 1 + rnd.nextInt(Integer.MAX_VALUE - payloadLimit - 1);
                out.header(1, randomFlags() | 0x01, serializationId(), 0, rnd.nextLong(), length);
            }
            case BAD_MAGIC -> {
                int magic = rnd.nextInt(0x10000);
                out.u16(magic == FrameBytes.MAGIC ? 0 : magic).u8(1).u8(0x03).u8(8).u8(0).u64(1).u32(0);
            }
            case BAD_VERSION -> {
                int version = rnd.nextInt(256);
                out.header(version == 1 ? 2 : version, 0x03, 8, 0, rnd.nextLong(), 0);
            }
            case NEGATIVE_LENGTH -> out.header(1, 0x03, 8, 0, rnd.nextLong(), Integer.MIN_VALUE | rnd.nextInt());
            case TRUNCATED -> {
                // a header or a body cut short, then the connection ends
                if (rnd.nextBoolean()) {
                    out.u16(FrameBytes.MAGIC).u8(1).u8(0x03).raw(randomBytes(rnd.nextInt(14)));
                } else {
                    int length = 10 + rnd.nextInt(2000);
                    out.header(1, 0x03, serializationId(), 0, rnd.nextLong(), length);
                    out.raw(randomBytes(rnd.nextInt(length)));
                }
            }
            case GARBAGE -> {
                byte[] b = randomBytes(1 + rnd.nextInt(512));
                if (b.length >= 2 && (((b[0] & 0xFF) << 8) | (b[1] & 0xFF)) == FrameBytes.MAGIC) {
                    b[0] = 0;
                }
                out.raw(b);
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        return kind;
    }

    private void request(FrameBytes out, boolean define, int ref, String descriptor) {
        int start = out.size();
        int flags = 0x01 | (rnd.nextInt(10) == 0 ? 0 : 0x02) | (define ? 0x08 : 0) | (rnd.nextInt(20) == 0 ? 0xB0 : 0);
        out.header(1, flags, serializationId(), rnd.nextInt(8) == 0 ? rnd.nextInt(256) : 0, rnd.nextLong(), 0);
        out.varint(ref);
        if (define) {
            if (rnd.nextInt(10) == 0) {
                out.varint(descriptor.length() + 1 + rnd.nextInt(1000)); // claims more than follows
                out.raw(descriptor.getBytes(StandardCharsets.UTF_8));
            } else {
                out.string(descriptor);
            }
        }
        // timeouts long enough that a loaded machine never drops a frame unread: the run stays deterministic
        out.varint(rnd.nextInt(4) == 0 ? rnd.nextInt() & 0x7FFFFFFF : 30_000 + rnd.nextInt(3000));
        if (rnd.nextInt(6) == 0) {
            out.varint(1 + rnd.nextInt(3));
            for (int i = 0; i < 2; i++) {
                out.string(randomText(rnd.nextInt(20)));
            }
        } else {
            out.varint(0);
        }
        out.raw(arguments());
        out.finishFrame(start);
    }

    private void varintEdge(FrameBytes out, int start) {
        out.header(1, 0x03 | (rnd.nextBoolean() ? 0x08 : 0), serializationId(), 0, rnd.nextLong(), 0);
        switch (rnd.nextInt(6)) {
            case 0 -> { } // empty body
            case 1 -> out.u8(0x80); // truncated varint
            case 2 -> out.u8(0xFF).u8(0xFF).u8(0xFF).u8(0xFF).u8(0xFF).u8(0xFF); // longer than 5 bytes
            case 3 -> out.u8(0xFF).u8(0xFF).u8(0xFF).u8(0xFF).u8(0x0F); // negative
            case 4 -> out.varint(Integer.MAX_VALUE).varint(Integer.MAX_VALUE).varint(Integer.MAX_VALUE);
            default -> {
                out.varint(0).varint(rnd.nextInt() & 0x7FFFFFFF); // a string length far beyond the frame
                out.raw(randomBytes(rnd.nextInt(40)));
            }
        }
        out.finishFrame(start);
    }

    private void attachments(FrameBytes out, int start) {
        out.header(1, 0x0B, serializationId(), 0, rnd.nextLong(), 0);
        out.varint(rnd.nextInt(16)).string(realDescriptors.get(rnd.nextInt(realDescriptors.size())));
        out.varint(1000);
        int claimed = switch (rnd.nextInt(4)) {
            case 0 -> 257 + rnd.nextInt(100_000); // over the attachment limit
            case 1 -> rnd.nextInt() & 0x7FFFFFFF;
            default -> 1 + rnd.nextInt(256);
        };
        out.varint(claimed);
        int written = Math.min(claimed, rnd.nextInt(40));
        for (int i = 0; i < written; i++) {
            if (rnd.nextInt(10) == 0) {
                out.varint(rnd.nextInt() & 0x7FFFFFFF); // a string longer than the frame
            } else {
                out.string(randomText(rnd.nextInt(30)));
            }
        }
        out.raw(randomBytes(rnd.nextInt(20)));
        out.finishFrame(start);
    }

    private String descriptor() {
        return switch (rnd.nextInt(6)) {
            case 0, 1, 2 -> realDescriptors.get(rnd.nextInt(realDescriptors.size()));
            case 3 -> {
                String real = realDescriptors.get(rnd.nextInt(realDescriptors.size()));
                int cut = rnd.nextInt(real.length());
                yield real.substring(0, cut) + randomText(rnd.nextInt(10)) + real.substring(cut);
            }
            case 4 -> randomText(rnd.nextInt(200));
            default -> new String(randomBytes(rnd.nextInt(100)), StandardCharsets.ISO_8859_1);
        };
    }

    /** The argument bytes of the next request frame alone: valid, mutated, truncated or random. */
    byte[] arguments() {
        int choice = rnd.nextInt(4);
        if (choice == 0) {
            return randomBytes(rnd.nextInt(200));
        }
        byte[] valid = validArguments.get(rnd.nextInt(validArguments.size()));
        byte[] b = valid.clone();
        if (choice == 1) {
            return b; // valid bytes, maybe in the wrong serialization for the frame or the wrong method
        }
        int flips = 1 + rnd.nextInt(4);
        for (int i = 0; i < flips && b.length > 0; i++) {
            int at = rnd.nextInt(b.length);
            b[at] = switch (rnd.nextInt(4)) {
                case 0 -> (byte) 0xFF;
                case 1 -> (byte) 0x7F;
                case 2 -> 0;
                default -> (byte) rnd.nextInt(256);
            };
        }
        if (choice == 3 && b.length > 1) {
            return java.util.Arrays.copyOf(b, rnd.nextInt(b.length)); // truncated
        }
        return b;
    }

    /**
     * Random flags without 0x40: with 0x20 it marks a compact stream frame, whose header is 12 bytes, and on anything
     * else it is refused and closes the connection (HostileStreamTest covers both), so it would break the frame
     * boundaries these kinds keep.
     */
    private int randomFlags() {
        return rnd.nextInt(256) & ~0x40;
    }

    private int randomMethodRef() {
        return switch (rnd.nextInt(3)) {
            case 0 -> 4096 + rnd.nextInt(1000); // beyond the per-connection limit
            case 1 -> rnd.nextInt() & 0x7FFFFFFF;
            default -> rnd.nextInt(4096);
        };
    }

    private int serializationId() {
        return rnd.nextInt(5) == 0 ? rnd.nextInt(256) : serializationIds[rnd.nextInt(serializationIds.length)];
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) rnd.nextInt(256);
        }
        return b;
    }

    private String randomText(int n) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int r = rnd.nextInt(10);
            sb.append(r < 7 ? (char) (0x20 + rnd.nextInt(0x5F)) : r < 9 ? (char) (0xA0 + rnd.nextInt(0x2000)) : '#');
        }
        return sb.toString();
    }
}
