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
            budget.checkDeadline();
            JSONReader.Context context = new JSONReader.Context(JSONFactory.getDefaultObjectReaderProvider(),
                    autoTypeHandler, READ_FEATURES);
            context.setMaxLevel(budget.limits().maxDepth());
            InputBuffer buffer = InputBuffer.readAll(in);
            Class<?> type = expectedType == null ? Object.class : expectedType;
            try (JSONReader reader = JSONReader.ofJSONB(buffer.bytes(), 0, buffer.length(), context)) {
                Object value = type == Object.class ? reader.readAny()
                        : reader.getObjectReader(type).readJSONBObject(reader, type, null, 0);
                reader.handleResolveTasks(value);
                if (!reader.isEnd()) {
                    throw new IOException("value ended before the input did (" + buffer.length() + " bytes): trailing data");
                }
                return value;
            }
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw SerializationFailures.decodeFailed("fastjson2", expectedType, depthLimit(e, budget));
        }
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
