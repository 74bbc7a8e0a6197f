package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.HashedWheelTimer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Shared pieces of the handler tests: a tiny real serializer, a service, frames. */
final class TestSupport {
    /** The interface the tests call. */
    interface Greeter {
        String greet(String name);

        String join(String a, String b);
    }

    static final ServiceKey KEY = new ServiceKey(Greeter.class.getName(), "1.0", "");
    static final Method GREET;
    static final Method JOIN;

    static {
        try {
            GREET = Greeter.class.getMethod("greet", String.class);
            JOIN = Greeter.class.getMethod("join", String.class, String.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private TestSupport() {
    }

    /**
     * Writes a String as its UTF-8 bytes (null as nothing) and a Throwable as "!" + its message: a
     * real serializer whose output is obvious, so frames can be pinned byte for byte.
     */
    static final class Utf8Serializer implements Serializer {
        @Override
        public byte id() {
            return 77;
        }

        @Override
        public String name() {
            return "utf8";
        }

        @Override
        public void serialize(Object value, OutputStream out) {
            try {
                if (value instanceof Throwable t) {
                    out.write(("!" + t.getMessage()).getBytes(StandardCharsets.UTF_8));
                } else if (value instanceof String s) {
                    out.write(s.getBytes(StandardCharsets.UTF_8));
                } else if (value != null) {
                    throw new SerializationException("utf8 writes strings only, not " + value.getClass().getName());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Object deserialize(InputStream in, Class<?> expectedType) {
            try {
                String s = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                return s.startsWith("!") ? new IllegalStateException(s.substring(1)) : s;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static final Utf8Serializer UTF8 = new Utf8Serializer();

    static RpcRequest request(MethodRef ref, int timeoutMillis, Map<String, String> attachments, Object... args) {
        return new RpcRequest(ref, UTF8, args, attachments, timeoutMillis, String.class);
    }

    static HashedWheelTimer timer() {
        return new HashedWheelTimer(10, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    static ClassAllowlist allowlist() {
        return ClassAllowlist.withDefaults();
    }

    /** A provider exporting {@link Greeter} with the utf8 serializer; it counts its invocations. */
    static final class GreeterDispatcher implements ServerDispatcher {
        int invocations;
        int serializerLookups;

        @Override
        public ServerMethod resolve(String descriptor) {
            if (descriptor.equals(MethodRef.descriptor(KEY, GREET))) {
                return method("greet", args -> "hello " + args[0]);
            }
            if (descriptor.equals(MethodRef.descriptor(KEY, JOIN))) {
                return method("join", args -> args[0] + "+" + args[1]);
            }
            throw new io.kestrel.rpc.api.ServiceNotFoundException("no " + descriptor);
        }

        private ServerMethod method(String name, java.util.function.Function<Object[], Object> body) {
            Class<?>[] types = name.equals("greet") ? new Class<?>[] {String.class} : new Class<?>[] {String.class, String.class};
            return new ServerMethod() {
                @Override
                public String displayName() {
                    return KEY + "#" + name;
                }

                @Override
                public Class<?>[] parameterTypes() {
                    return types;
                }

                @Override
                public Serializer serializer(byte id) {
                    serializerLookups++;
                    if (id != UTF8.id()) {
                        throw new io.kestrel.rpc.api.BadRequestException("serialization id " + id + " not accepted");
                    }
                    return UTF8;
                }

                @Override
                public Object invoke(Object[] arguments, io.kestrel.rpc.transport.spi.IncomingCall call) {
                    invocations++;
                    if ("Eve".equals(arguments[0])) {
                        call.responseAttachments().put("srv", "b1");
                    }
                    if ("boom".equals(arguments[0])) {
                        throw new IllegalStateException("boom from " + name);
                    }
                    return body.apply(arguments);
                }
            };
        }
    }

    /** Serialized arguments and the lengths of all but the last. */
    record Arguments(ByteBuf bytes, int[] lengths) {
    }

    /** A request's arguments serialized as the consumer does ({@link RequestEncoder#serializeArguments}). */
    static Arguments serializeArguments(io.netty.buffer.ByteBufAllocator alloc, RpcRequest request) {
        int[] lengths = RequestEncoder.lengthsFor(request.arguments());
        ByteBuf bytes = RequestEncoder.serializeArguments(alloc, request.method(), request.serializer(),
                request.arguments(), lengths);
        return new Arguments(bytes, lengths);
    }

    /** A request's frame head as the consumer writes it ({@link RequestEncoder#writeHead}). */
    static ByteBuf writeHead(io.netty.buffer.ByteBufAllocator alloc, long requestId, RpcRequest request, int methodRef,
            String descriptor, int[] argumentLengths, int argumentBytes) {
        ByteBuf head = alloc.buffer();
        RequestEncoder.writeHead(head, requestId, request.serializer().id(), request.timeoutMillis(),
                request.attachments(), methodRef, descriptor, argumentLengths, argumentBytes);
        return head;
    }

    /** A whole request frame as the consumer writes it. */
    static ByteBuf requestFrame(long id, byte serializationId, int methodRef, String descriptor, Object... args) {
        RpcRequest request = new RpcRequest(new MethodRef(KEY, GREET), UTF8, args, Map.of(), 1000, String.class);
        io.netty.buffer.ByteBufAllocator alloc = io.netty.buffer.UnpooledByteBufAllocator.DEFAULT;
        Arguments a = serializeArguments(alloc, request);
        ByteBuf head = writeHead(alloc, id, request, methodRef, descriptor, a.lengths(), a.bytes().readableBytes());
        head.setByte(4, serializationId);
        return Unpooled.wrappedBuffer(head, a.bytes());
    }

    /** All readable bytes of the outbound buffers, concatenated and released. */
    static byte[] drain(io.netty.channel.embedded.EmbeddedChannel ch) {
        ByteBuf all = Unpooled.buffer();
        Object o;
        while ((o = ch.readOutbound()) != null) {
            ByteBuf b = (ByteBuf) o;
            all.writeBytes(b);
            b.release();
        }
        byte[] bytes = new byte[all.readableBytes()];
        all.readBytes(bytes);
        return bytes;
    }

    /** Decodes bytes into frames with a real {@link FrameDecoder}. */
    static java.util.List<Frame> frames(byte[] bytes) {
        io.netty.channel.embedded.EmbeddedChannel ch = new io.netty.channel.embedded.EmbeddedChannel(
                new FrameDecoder(1 << 20, new io.kestrel.rpc.transport.TransportCounters()));
        ch.writeInbound(Unpooled.wrappedBuffer(bytes));
        java.util.List<Frame> out = new java.util.ArrayList<>();
        Object o;
        while ((o = ch.readInbound()) != null) {
            out.add((Frame) o);
        }
        ch.finishAndReleaseAll();
        return out;
    }

    static String hex(byte[] bytes) {
        return io.netty.buffer.ByteBufUtil.hexDump(bytes);
    }
}
