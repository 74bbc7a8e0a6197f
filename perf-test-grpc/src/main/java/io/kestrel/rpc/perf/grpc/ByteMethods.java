package io.kestrel.rpc.perf.grpc;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The streams benchmark's two grpc-java methods, described without protoc: every message is a {@code byte[]} that
 * goes on the wire as it is (the payload the other systems carry, with no serializer around it).
 *
 * <ul>
 *   <li>{@link #FEED} {@code perf.Streams/Feed}, server streaming: the request is {@code count (4) | payload (4)},
 *       the answer {@code count} messages of {@code payload} bytes, message {@code i} carrying {@code i} in its
 *       first 8 bytes (big-endian), as perf-test's {@code StreamMessages} makes them;</li>
 *   <li>{@link #ECHO} {@code perf.Streams/Echo}, bidirectional: answers each message with itself.</li>
 * </ul>
 */
public final class ByteMethods {
    static final String SERVICE = "perf.Streams";

    /** A marshaller that hands the array to grpc as it is (known length, drained in one write), as protobuf's does. */
    static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new BytesStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read a message", e);
            }
        }
    };

    static final MethodDescriptor<byte[], byte[]> FEED = method("Feed", MethodDescriptor.MethodType.SERVER_STREAMING);
    static final MethodDescriptor<byte[], byte[]> ECHO = method("Echo", MethodDescriptor.MethodType.BIDI_STREAMING);

    private ByteMethods() {
    }

    private static MethodDescriptor<byte[], byte[]> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.newBuilder(BYTES, BYTES).setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name)).build();
    }

    /** Feed's request: how many messages of how many bytes. */
    static byte[] feedRequest(int count, int payload) {
        return ByteBuffer.allocate(8).putInt(count).putInt(payload).array();
    }

    /** Message {@code seq} of {@code payload} bytes (at least 8): {@code seq} big-endian first, zeros after. */
    static byte[] message(long seq, int payload) {
        byte[] m = new byte[payload];
        ByteBuffer.wrap(m).putLong(0, seq);
        return m;
    }

    /** The sequence number of a message, checked against its expected one and size. */
    static void check(byte[] m, long expected, int payload) {
        long seq = m.length >= 8 ? ByteBuffer.wrap(m).getLong(0) : -1;
        if (m.length != payload || seq != expected) {
            throw new IllegalStateException("message " + expected + " came as " + m.length + " bytes numbered " + seq
                    + " (out of order or wrong size)");
        }
    }

    private static final class BytesStream extends ByteArrayInputStream implements KnownLength, Drainable {
        BytesStream(byte[] bytes) {
            super(bytes);
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            int n = count - pos;
            target.write(buf, pos, n);
            pos = count;
            return n;
        }
    }
}
