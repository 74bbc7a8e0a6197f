package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.Hessian2Input;
import com.caucho.hessian.io.Hessian2Output;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.AllowlistClassLoader;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import io.kestrel.rpc.serialization.internal.InputBuffer;
import io.kestrel.rpc.serialization.internal.PerThread;
import io.kestrel.rpc.serialization.internal.SerializationFailures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Thread-safe hessian2 serializer. The {@link AllowlistSerializerFactory} (thread-safe, caches
 * per-class serializers) is shared; each thread keeps one {@link Hessian2Output} and one
 * {@link Hessian2Input} with their buffers and re-targets them at the caller's stream per call.
 * References (shared and cyclic) are tracked within one value.
 *
 * <p>Reading first takes the whole value into memory ({@link InputBuffer}) so that every length
 * claimed by the stream can be checked against the bytes actually left ({@link LengthBudget})
 * before hessian allocates for it.
 *
 * <p>Decode budget: every value is counted by {@link TrackingHessian2Input} (depth, count, deadline),
 * and hash-based sets and maps are read by {@link HashContainerDeserializer} (hash nesting, and the hash
 * cost of each element or key before insertion). Per-thread state: the thread's input is dropped after
 * a value larger than {@link InputBuffer#MAX_KEPT_BYTES} (its reference table grew with it), and its
 * output after writing such a value, so an idle thread keeps no large buffers.
 */
final class Hessian2Serializer implements Serializer {
    private final AllowlistSerializerFactory factory;
    private final PerThread<Hessian2Output> outputs;
    private final PerThread<Hessian2Input> inputs;
    private final DecodeLimits limits;

    Hessian2Serializer(SerializationOptions options) {
        // Hessian loads its own helper classes by name through the factory's loader, so the loader
        // stays unfiltered; every type name from the stream is checked in the factory instead.
        limits = options.decodeLimits();
        factory = new AllowlistSerializerFactory(AllowlistClassLoader.defaultParent(), new ClassFilter(options.allowlist()));
        factory.addFactory(new JavaTimeSerializerFactory());
        // Registration has no meaning in hessian (names are always written); registered classes
        // are allowlisted by SerializationOptions.
        outputs = new PerThread<>(() -> {
            Hessian2Output out = new Hessian2Output();
            out.setSerializerFactory(factory);
            return out;
        });
        inputs = new PerThread<>(() -> {
            Hessian2Input in = new TrackingHessian2Input();
            in.setSerializerFactory(factory);
            return in;
        });
    }

    /** Array deserializers its factory caches now, for tests (bounded by the name cache size). */
    int cachedArrayTypes() {
        return factory.cachedArrayTypes();
    }

    @Override
    public byte id() {
        return SerializerIds.HESSIAN2;
    }

    @Override
    public String name() {
        return "hessian2";
    }

    @Override
    public void serialize(Object value, OutputStream out) throws SerializationException {
        Hessian2Output output = outputs.acquire();
        boolean keep = false;
        CountingStream counted = new CountingStream(out);
        output.init(counted); // also resets references and class definitions
        try {
            output.writeObject(value);
            output.flushBuffer();
            // a reference table grown with a large value is not kept by an idle thread
            keep = counted.count <= InputBuffer.MAX_KEPT_BYTES;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            // not kept: its buffer may hold part of the failed value
            throw SerializationFailures.encodeFailed("hessian2", value, e);
        } finally {
            output.init(null);
            outputs.release(output, keep);
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
    public Object deserialize(InputStream in, Class<?> expectedType, DecodeBudget decodeBudget) throws SerializationException {
        Hessian2Input input = inputs.acquire();
        boolean keep = false;
        InputBuffer buffer = null;
        try {
            buffer = InputBuffer.readAll(in);
            try (LengthBudget budget = openBudget(buffer, input, decodeBudget)) {
                // The stream names the runtime type; the declared type only matters for numbers, which
                // hessian writes in their smallest form (a short arrives as an int).
                Object value = isBoxedOrPrimitive(expectedType) ? input.readObject(expectedType) : input.readObject();
                if (!input.isEnd()) {
                    throw new IOException("value ended before the input did: trailing data");
                }
                // a reference table grown with a large value is not kept by an idle thread
                keep = budget.totalBytes() <= InputBuffer.MAX_KEPT_BYTES;
                return value;
            }
        } catch (IOException | RuntimeException | StackOverflowError e) {
            keep = false;
            throw SerializationFailures.decodeFailed("hessian2", expectedType, e);
        } finally {
            input.init(null);
            inputs.release(input, keep);
            if (buffer != null) {
                buffer.release();
            }
        }
    }

    @Override
    public <R> R readSequence(InputStream in, DecodeBudget decodeBudget, SequenceBody<ValueReader, R> body)
            throws SerializationException {
        Hessian2Input input = inputs.acquire();
        boolean keep = false;
        InputBuffer buffer = null;
        try {
            buffer = InputBuffer.readAll(in);
            try (LengthBudget budget = openBudget(buffer, input, decodeBudget)) {
                R result = body.run(new ValueReader() {
                    @Override
                    public Object read(Class<?> expectedType) throws IOException {
                        return isBoxedOrPrimitive(expectedType) ? input.readObject(expectedType) : input.readObject();
                    }

                    @Override
                    public boolean atEnd() throws IOException {
                        return input.isEnd();
                    }
                });
                keep = budget.totalBytes() <= InputBuffer.MAX_KEPT_BYTES;
                return result;
            }
        } catch (IOException | RuntimeException | StackOverflowError e) {
            keep = false;
            throw SerializationFailures.decodeFailed("hessian2", Object.class, e);
        } finally {
            input.init(null);
            inputs.release(input, keep);
            if (buffer != null) {
                buffer.release();
            }
        }
    }

    @Override
    public void writeSequence(OutputStream out, SequenceBody<ValueWriter, Void> body) throws SerializationException {
        // a fresh output per sequence: class definitions and references span its values, as in Dubbo's bodies
        Hessian2Output output = outputs.acquire();
        boolean keep = false;
        CountingStream counted = new CountingStream(out);
        output.init(counted);
        try {
            body.run(output::writeObject);
            output.flushBuffer();
            keep = counted.count <= InputBuffer.MAX_KEPT_BYTES;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw SerializationFailures.encodeFailed("hessian2", null, e);
        } finally {
            output.init(null);
            outputs.release(output, keep);
        }
    }

    /** Reads the whole value, points {@code input} at it and makes its length budget active. */
    private static LengthBudget openBudget(InputBuffer buffer, Hessian2Input input, DecodeBudget decodeBudget) {
        ByteArrayInputStream source = new ByteArrayInputStream(buffer.bytes(), 0, buffer.length());
        input.init(source);
        return LengthBudget.open(source, buffer.length(), decodeBudget);
    }

    /** Counts the bytes written through it, to tell a large value from a small one. */
    private static final class CountingStream extends java.io.FilterOutputStream {
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() {
            // the stream is the caller's
        }
    }

    private static boolean isBoxedOrPrimitive(Class<?> type) {
        return type != null && (type.isPrimitive() || type == Byte.class || type == Short.class || type == Integer.class
                || type == Long.class || type == Float.class || type == Double.class || type == Character.class
                || type == Boolean.class);
    }

    @Override
    public String toString() {
        return "Hessian2Serializer";
    }
}
