package io.kestrel.rpc.serialization.fastjson2;

import com.alibaba.fastjson2.JSONB;
import com.alibaba.fastjson2.JSONFactory;
import com.alibaba.fastjson2.JSONReader;
import com.alibaba.fastjson2.JSONWriter;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.AllowlistClassLoader;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import io.kestrel.rpc.serialization.internal.InputBuffer;
import io.kestrel.rpc.serialization.internal.SerializationFailures;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Thread-safe fastjson2 (JSONB) serializer. fastjson2 caches its readers, writers and byte buffers
 * itself, so a call builds only a small context. Writing uses field-based access (private fields
 * without getters round-trip), writes class names and detects references (shared and cyclic);
 * reading resolves every type name through {@link AllowlistAutoTypeHandler}.
 *
 * <p>Decode budget: the deadline is looked at before reading starts, and {@code maxDepth} is passed
 * as fastjson2's {@code maxLevel} (which its JSONB reader does not apply to nested arrays, as tests
 * show; where it does refuse, the refusal is reported as the depth limit). fastjson2's JSONB reader
 * offers no hook per value or per insertion, so depth, value counts, hash nesting, hash work and a
 * deadline passing mid-value cannot be enforced: see {@link Fastjson2Serialization#boundsDecodeWork()}.
 */
final class Fastjson2Serializer implements Serializer {
    private static final JSONWriter.Feature[] WRITE_FEATURES = {
        JSONWriter.Feature.WriteClassName, JSONWriter.Feature.FieldBased, JSONWriter.Feature.ReferenceDetection,
        JSONWriter.Feature.WriteNulls, JSONWriter.Feature.NotWriteDefaultValue, JSONWriter.Feature.WriteNameAsSymbol,
    };
    /**
     * What Apache Dubbo 3.3's fastjson2 serialization writes each value of a dubbo body with (its
     * FastJson2ObjectOutput): ours plus NotWriteHashMapArrayListClassName.
     */
    private static final JSONWriter.Feature[] DUBBO_WRITE_FEATURES = {
        JSONWriter.Feature.WriteClassName, JSONWriter.Feature.FieldBased, JSONWriter.Feature.ReferenceDetection,
        JSONWriter.Feature.WriteNulls, JSONWriter.Feature.NotWriteDefaultValue,
        JSONWriter.Feature.NotWriteHashMapArrayListClassName, JSONWriter.Feature.WriteNameAsSymbol,
    };
    private static final JSONReader.Feature[] READ_FEATURES = {
        JSONReader.Feature.FieldBased, JSONReader.Feature.UseNativeObject,
    };

    private final AllowlistAutoTypeHandler autoTypeHandler;
    private final DecodeLimits limits;

    Fastjson2Serializer(SerializationOptions options) {
        limits = options.decodeLimits();
        ClassFilter filter = new ClassFilter(options.allowlist());
        autoTypeHandler = new AllowlistAutoTypeHandler(filter, new AllowlistClassLoader(AllowlistClassLoader.defaultParent(), filter));
    }

    @Override
    public byte id() {
        return SerializerIds.FASTJSON2;
    }

    @Override
    public String name() {
        return "fastjson2";
    }

    @Override
    public void serialize(Object value, OutputStream out) throws SerializationException {
        try {
            JSONB.writeTo(out, value, WRITE_FEATURES);
        } catch (RuntimeException | StackOverflowError e) {
            throw SerializationFailures.encodeFailed("fastjson2", value, e);
        }
    }

    @Override
    public DecodeLimits decodeLimits() {
        return limits;
    }

    @Override
    public Object deserialize(InputStream in, Class<?> expectedType) throws SerializationException {
        return deserialize(in, expectedType, DecodeBudget.of(limits));
    }

    @Override
    public Object deserialize(InputStream in, Class<?> expectedType, DecodeBudget budget) throws SerializationException {
        try {
            InputBuffer buffer = InputBuffer.readAll(in);
            return read(buffer.bytes(), 0, buffer.length(), expectedType, budget);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw SerializationFailures.decodeFailed("fastjson2", expectedType, depthLimit(e, budget));
        }
    }

    /** One JSONB value that fills {@code bytes[offset, offset + length)} exactly. */
    private Object read(byte[] bytes, int offset, int length, Class<?> expectedType, DecodeBudget budget)
            throws IOException {
        budget.checkDeadline();
        JSONReader.Context context = new JSONReader.Context(JSONFactory.getDefaultObjectReaderProvider(),
                autoTypeHandler, READ_FEATURES);
        context.setMaxLevel(budget.limits().maxDepth());
        Class<?> type = expectedType == null ? Object.class : expectedType;
        try (JSONReader reader = JSONReader.ofJSONB(bytes, offset, length, context)) {
            Object value = type == Object.class ? reader.readAny()
                    : reader.getObjectReader(type).readJSONBObject(reader, type, null, 0);
            reader.handleResolveTasks(value);
            if (!reader.isEnd()) {
                throw new IOException("value ended before the input did (" + length + " bytes): trailing data");
            }
            return value;
        }
    }

    /**
     * Apache Dubbo's fastjson2 framing (its serialization id 23): each value is a 4-byte big-endian length and
     * that many bytes of one JSONB value, written with Dubbo's features. Values share nothing, so each is read
     * on its own, every type name through the allowlist; a length beyond the bytes left is refused unread.
     */
    @Override
    public <R> R readSequence(InputStream in, DecodeBudget budget, SequenceBody<ValueReader, R> body)
            throws SerializationException {
        try {
            InputBuffer buffer = InputBuffer.readAll(in);
            byte[] bytes = buffer.bytes();
            int end = buffer.length();
            int[] at = {0};
            return body.run(new ValueReader() {
                @Override
                public Object read(Class<?> expectedType) throws IOException {
                    if (end - at[0] < Integer.BYTES) {
                        throw new IOException("dubbo fastjson2 body ends before the next value's length ("
                                + (end - at[0]) + " bytes left)");
                    }
                    int length = ((bytes[at[0]] & 0xff) << 24) | ((bytes[at[0] + 1] & 0xff) << 16)
                            | ((bytes[at[0] + 2] & 0xff) << 8) | (bytes[at[0] + 3] & 0xff);
                    int start = at[0] + Integer.BYTES;
                    if (length <= 0 || length > end - start) {
                        throw new IOException("dubbo fastjson2 value claims " + length + " bytes, but " + (end - start)
                                + " are left in the body");
                    }
                    at[0] = start + length;
                    return Fastjson2Serializer.this.read(bytes, start, length, boxed(expectedType), budget);
                }

                @Override
                public boolean atEnd() {
                    return at[0] >= end;
                }
            });
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw SerializationFailures.decodeFailed("fastjson2", Object.class, depthLimit(e, budget));
        }
    }

    @Override
    public void writeSequence(OutputStream out, SequenceBody<ValueWriter, Void> body) throws SerializationException {
        try {
            body.run(value -> {
                byte[] bytes = JSONB.toBytes(value, DUBBO_WRITE_FEATURES);
                out.write(new byte[] {(byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16),
                    (byte) (bytes.length >>> 8), (byte) bytes.length});
                out.write(bytes);
            });
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw SerializationFailures.encodeFailed("fastjson2", null, e);
        }
    }

    /** Primitive types as their boxes: fastjson2 reads a boxed value where the dubbo body asks for an int. */
    private static Class<?> boxed(Class<?> type) {
        if (type == null || !type.isPrimitive()) {
            return type;
        }
        return type == int.class ? Integer.class : type == long.class ? Long.class : type == boolean.class
                ? Boolean.class : type == byte.class ? Byte.class : type == short.class ? Short.class
                : type == char.class ? Character.class : type == float.class ? Float.class : Double.class;
    }

    /** fastjson2's own "level too large" refusal as ours, naming the setting; anything else as it is. */
    private static Throwable depthLimit(Throwable e, DecodeBudget budget) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("level too large")) {
                io.kestrel.rpc.api.DecodeLimitException limit = budget.refused(DecodeLimits.Limit.DEPTH,
                        "values are nested more than " + budget.limits().maxDepth() + " deep");
                limit.initCause(t);
                return limit;
            }
        }
        return e;
    }

    @Override
    public String toString() {
        return "Fastjson2Serializer";
    }
}
