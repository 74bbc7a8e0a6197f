package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.Serializer;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.Map;

/**
 * Provider side of the request body: reads what {@link RequestEncoder} writes (the byte diagram is
 * there). The part before the arguments is read on the event loop ({@link #readHead}); the
 * arguments on the business thread ({@link #readArguments}).
 */
public final class RequestDecoder {
    /** Most method references one connection may define; bounds per-connection server memory. */
    public static final int MAX_METHOD_REFS = 4096;
    /** Longest method descriptor accepted, in UTF-8 bytes. */
    public static final int MAX_DESCRIPTOR_BYTES = 2048;
    /** Bytes at the start of a body that always hold a method definition: two varints and the descriptor. */
    public static final int DEFINITION_BYTES = 5 + 5 + MAX_DESCRIPTOR_BYTES;

    private RequestDecoder() {
    }

    /**
     * The body up to the arguments.
     *
     * @param descriptor the method descriptor defined by this request, or null
     */
    public record Head(int methodRef, String descriptor, int timeoutMillis, Map<String, String> attachments) {
    }

    /**
     * Reads the body up to the arguments, leaving {@code body}'s reader index at the argument lengths.
     *
     * @throws CorruptedFrameException when the bytes do not follow the format or exceed a limit
     */
    public static Head readHead(ByteBuf body, boolean definesMethod) {
        int ref = Wire.readVarint(body);
        String descriptor = null;
        if (definesMethod) {
            descriptor = Wire.readString(body, MAX_DESCRIPTOR_BYTES);
            if (ref >= MAX_METHOD_REFS) {
                throw new CorruptedFrameException("method reference " + ref + " is beyond the per-connection limit "
                        + MAX_METHOD_REFS);
            }
        }
        int timeoutMillis = Wire.readVarint(body);
        return new Head(ref, descriptor, timeoutMillis, Wire.readAttachments(body, "request"));
    }

    /**
     * Reads only the method definition at the start of a defining request's body (the rest may be
     * missing).
     *
     * @return the reference number and the descriptor
     * @throws CorruptedFrameException when the bytes do not hold a definition
     */
    public static Head readDefinition(ByteBuf bodyStart) {
        int ref = Wire.readVarint(bodyStart);
        String descriptor = Wire.readString(bodyStart, MAX_DESCRIPTOR_BYTES);
        if (ref >= MAX_METHOD_REFS) {
            throw new CorruptedFrameException("method reference " + ref + " is beyond the per-connection limit "
                    + MAX_METHOD_REFS);
        }
        return new Head(ref, descriptor, 0, java.util.Map.of());
    }

    /**
     * Reads the argument lengths and deserializes every argument as its declared type.
     *
     * @throws CorruptedFrameException when the lengths do not fit the body
     * @throws SerializationException when an argument cannot be read
     */
    public static Object[] readArguments(ByteBuf body, Class<?>[] types, Serializer serializer) {
        return readArguments(body, types, serializer, DecodeBudget.of(serializer.decodeLimits()));
    }

    /**
     * Reads the arguments spending at most {@code budget} (depth, values, hash work, the call's
     * deadline), shared by all of them.
     *
     * @throws io.kestrel.rpc.api.SerializationException when an argument cannot be read or the
     *     budget is spent (a decode limit, named in the message with its setting)
     */
    public static Object[] readArguments(ByteBuf body, Class<?>[] types, Serializer serializer, DecodeBudget budget) {
        int n = types.length;
        Object[] args = new Object[n];
        if (n == 0) {
            return args;
        }
        int[] lengths = n > 1 ? new int[n - 1] : null; // one argument (the common case): its length is the rest
        long known = 0;
        for (int i = 0; i < n - 1; i++) {
            lengths[i] = Wire.readVarint(body);
            known += lengths[i];
        }
        if (known < 0 || known > body.readableBytes()) {
            throw new CorruptedFrameException("argument lengths add up to " + known + " bytes but only "
                    + body.readableBytes() + " remain");
        }
        int index = body.readerIndex();
        for (int i = 0; i < n; i++) {
            int length = i < n - 1 ? lengths[i] : body.writerIndex() - index;
            args[i] = Wire.readValue(body, index, length, serializer, types[i], budget);
            index += length;
            if (args[i] != null && !types[i].isPrimitive() && !types[i].isInstance(args[i])) {
                throw mismatch(i, types[i], args[i], serializer);
            }
        }
        body.readerIndex(index);
        return args;
    }

    /**
     * An argument read as another type than the parameter's: an engine that reads a class it cannot
     * load as a map of its fields (hessian2, fastjson2) gets here instead of failing, and the method
     * would fail with "argument type mismatch".
     */
    private static SerializationException mismatch(int index, Class<?> type, Object arg, Serializer serializer) {
        String read = "argument " + (index + 1) + " was read as a " + arg.getClass().getName() + ", but the method takes a "
                + type.getName();
        if (arg instanceof Map<?, ?>) {
            return new SerializationException(read + ": the consumer sent a class this provider does not have, which "
                    + serializer.name() + " reads as a map of its fields. Deploy the jar that holds the consumer's class"
                    + " (a " + type.getName() + ") with the provider");
        }
        return new SerializationException(read + ": consumer and provider disagree on the method's parameter types;"
                + " build both from the same version of the interface");
    }

    /**
     * The answer to a request whose arguments could not be decoded; a class the provider lacks is named
     * with where to deploy it (the generic decoding message would blame the bytes).
     */
    static String argumentsFailure(String method, String serializer, RuntimeException e) {
        if (e instanceof io.kestrel.rpc.api.MissingClassException m) {
            return "cannot decode the arguments of " + method + " with " + serializer + ": the provider cannot load class "
                    + m.className() + ", which the consumer sent (the allowlist accepts it, but it is not on the"
                    + " provider's class path). Deploy the jar that holds " + m.className() + " with the provider,"
                    + " or send only types the provider has";
        }
        return "cannot decode the arguments of " + method + " with " + serializer + ": " + e.getMessage();
    }
}
