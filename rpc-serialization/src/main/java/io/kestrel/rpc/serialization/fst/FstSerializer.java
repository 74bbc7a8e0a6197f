package io.kestrel.rpc.serialization.fst;

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
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.FSTObjectInput;
import org.nustaq.serialization.FSTObjectOutput;

/**
 * Thread-safe fst serializer. One {@link FSTConfiguration} per serializer (it is thread-safe and
 * keeps a per-thread {@link FSTObjectInput}/{@link FSTObjectOutput} with their buffers, so nothing
 * heavy is built per call). References are shared, the optimizer's classes registered in order.
 *
 * <p>Allowlist: the configuration's class loader is an {@link AllowlistClassLoader}; fst resolves
 * every class name it reads through it (and caches only successes), so a refused name fails before
 * it is loaded. fst's pre-registered classes are JDK value and collection types.
 *
 * <p>Lengths: reading goes through a per-thread {@link BoundedFstObjectInput} over the whole value,
 * with {@link BoundedFstDecoder} and {@link BoundedFstSerializers}, so no length claimed by the
 * stream is allocated for unless the bytes left can hold that many elements.
 *
 * <p>Decode budget: see {@link BoundedFstObjectInput}. Per-thread state: the thread's input is dropped
 * after a value larger than {@link InputBuffer#MAX_KEPT_BYTES} (its reference table grew with the
 * value), and so is its output after writing one, so an idle thread keeps no large buffers.
 */
final class FstSerializer implements Serializer {
    private final FSTConfiguration conf;
    private final int registeredCount;
    private final PerThread<BoundedFstObjectInput> inputs;
    private final BoundedStreamCoderFactory coders;
    private final DecodeLimits limits;
    private static final byte[] NO_BYTES = new byte[0];

    /** Which classes this side registers, for messages. */
    private final String registration;

    FstSerializer(SerializationOptions options) {
        this.registration = options.registrationDescription();
        conf = FSTConfiguration.createDefaultConfiguration();
        conf.setShareReferences(true);
        coders = new BoundedStreamCoderFactory(conf);
        conf.setStreamCoderFactory(coders);
        limits = options.decodeLimits();
        BoundedFstSerializers.register(conf);
        ClassFilter filter = new ClassFilter(options.allowlist());
        ClassLoader loader = new AllowlistClassLoader(AllowlistClassLoader.defaultParent(), filter);
        conf.setClassLoader(loader);
        // fst rebuilds exceptions through a (String) constructor, which many exceptions lack.
        conf.registerSerializer(Throwable.class, new FstJdkThrowableSerializer(filter, loader), true);
        RefusedClassSerializer.install(conf, filter);
        conf.registerClass(options.registeredClasses().toArray(new Class<?>[0]));
        registeredCount = options.registeredClasses().size();
        inputs = new PerThread<>(() -> new BoundedFstObjectInput(conf));
    }

    @Override
    public byte id() {
        return SerializerIds.FST;
    }

    @Override
    public String name() {
        return "fst";
    }

    @Override
    public void serialize(Object value, OutputStream out) throws SerializationException {
        try {
            FSTObjectOutput output = conf.getObjectOutput(out);
            output.writeObject(value);
            output.flush(); // not close(): the stream is the caller's, the output is reused by this thread
            if (output.getBuffer().length > InputBuffer.MAX_KEPT_BYTES) {
                coders.getOutput().remove(); // grown by a large value: not kept by an idle thread
            }
        } catch (Exception | StackOverflowError e) {
            throw SerializationFailures.encodeFailed("fst", value, e);
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
        BoundedFstObjectInput input = null;
        InputBuffer buffer = null;
        boolean keep = false;
        try {
            // fst reads zeros past the end of its input, so check the value used exactly the bytes given.
            buffer = InputBuffer.readAll(in);
            input = inputs.acquire();
            input.tracker.start(budget);
            input.startValue(buffer.bytes(), buffer.length());
            Object value = input.readObject();
            int used = input.getCodec().getInputPos();
            if (used != buffer.length()) {
                throw new IOException("value used " + used + " bytes but the input holds " + buffer.length()
                        + (used > buffer.length() ? ": truncated" : ": trailing data"));
            }
            // a reference table grown with a large value is not kept by an idle thread
            if (buffer.length() <= InputBuffer.MAX_KEPT_BYTES) {
                input.tracker.finish();
                input.startValue(NO_BYTES, 0); // do not keep the value's bytes reachable
                keep = true;
            }
            return value;
        } catch (Exception | StackOverflowError e) {
            // not kept: it may hold part of the failed value
            throw SerializationFailures.decodeFailed("fst", expectedType, e, registration, registeredCount > 0);
        } finally {
            if (input != null) {
                inputs.release(input, keep);
            }
            if (buffer != null) {
                buffer.release();
            }
        }
    }

    /** Bytes the calling thread's fst output keeps for its next call (for tests). */
    int retainedOutputBytes() {
        Object output = coders.getOutput().get();
        return output instanceof FSTObjectOutput o ? o.getBuffer().length : 0;
    }

    @Override
    public String toString() {
        return "FstSerializer{registered=" + registeredCount + "}";
    }
}
