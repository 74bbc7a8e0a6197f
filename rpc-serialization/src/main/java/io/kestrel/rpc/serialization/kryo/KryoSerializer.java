package io.kestrel.rpc.serialization.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CompatibleFieldSerializer;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.util.MapReferenceResolver;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.AllowlistClassLoader;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import io.kestrel.rpc.serialization.internal.EnginePool;
import io.kestrel.rpc.serialization.internal.InputBuffer;
import io.kestrel.rpc.serialization.internal.SerializationFailures;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * Thread-safe kryo serializer. Kryo instances are not thread-safe and costly to build, so each is
 * pooled together with its {@link Output} and {@link Input} buffers ({@link EnginePool}, without locks); a call
 * borrows one set and returns it. A value is written whole into the pooled buffer (which grows for a large one, and is
 * not kept past {@value #MAX_POOLED_BUFFER_BYTES} bytes), then to the caller's stream in one write.
 *
 * <p>Configuration of every pooled instance: references on (shared and cyclic graphs), registration
 * optional, the optimizer's classes registered in order, {@link AllowlistClassResolver} checking each
 * class name read, a filtering class loader as a second line, {@code Throwable}s via
 * {@link JdkThrowableSerializer}, and objects created through their no-arg constructor when they
 * have one, otherwise without calling a constructor (objenesis).
 */
final class KryoSerializer implements Serializer {
    private static final int BUFFER_BYTES = 4096;
    private static final byte[] NO_BYTES = new byte[0];
    /** An output buffer that grew beyond this while writing a large value is replaced before pooling. */
    static final int MAX_POOLED_BUFFER_BYTES = InputBuffer.MAX_KEPT_BYTES;

    private final ClassFilter filter;
    private final List<Class<?>> registered;
    private final boolean compatible;
    private final DecodeLimits limits;
    private final ClassLoader loader;
    private final EnginePool<Engine> pool;

    /** Which classes this side registers, for messages. */
    private final String registration;

    KryoSerializer(SerializationOptions options) {
        this.registration = options.registrationDescription();
        this.filter = new ClassFilter(options.allowlist());
        this.registered = options.registeredClasses();
        this.compatible = options.compatible();
        this.limits = options.decodeLimits();
        this.loader = new AllowlistClassLoader(AllowlistClassLoader.defaultParent(), filter);
        int capacity = Math.max(16, Runtime.getRuntime().availableProcessors() * 4);
        this.pool = new EnginePool<>(capacity, () -> new Engine(newKryo()));
        pool.free(pool.obtain()); // fail fast on a bad registration, at create() time
    }

    /** One pooled unit: a configured kryo and its buffers. */
    private static final class Engine {
        final TrackingKryo kryo;
        final Output output = new Output(BUFFER_BYTES, -1);
        final BoundedInput input = new BoundedInput(BUFFER_BYTES);

        Engine(TrackingKryo kryo) {
            this.kryo = kryo;
        }
    }

    private TrackingKryo newKryo() {
        TrackingKryo kryo = new TrackingKryo(new AllowlistClassResolver(filter), new MapReferenceResolver());
        kryo.setRegistrationRequired(false);
        kryo.setWarnUnregisteredClasses(false);
        kryo.setReferences(true);
        kryo.setClassLoader(loader);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        if (compatible) {
            kryo.setDefaultSerializer(CompatibleFieldSerializer.class);
        }
        kryo.addDefaultSerializer(Throwable.class, new JdkThrowableSerializer(filter));
        BoundedCollectionSerializers.install(kryo);
        for (Class<?> c : registered) {
            kryo.register(c);
        }
        return kryo;
    }

    @Override
    public byte id() {
        return SerializerIds.KRYO;
    }

    @Override
    public String name() {
        return "kryo";
    }

    @Override
    public void serialize(Object value, OutputStream out) throws SerializationException {
        Engine engine = pool.obtain();
        boolean healthy = false;
        try {
            // The whole value in the pooled buffer first, then one write: kryo's fast string loop runs only
            // when the whole string fits the buffer (a 4 KB buffer flushed to the stream as it fills takes
            // its char-by-char slow path: 2-3x slower for a 50,000-character string).
            Output output = engine.output;
            output.reset();
            engine.kryo.writeClassAndObject(output, value);
            out.write(output.getBuffer(), 0, output.position());
            healthy = true;
        } catch (IOException e) {
            throw SerializationFailures.encodeFailed("kryo", value, e);
        } catch (RuntimeException | StackOverflowError e) {
            throw SerializationFailures.encodeFailed("kryo", value, e);
        } finally {
            release(engine, healthy);
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

    /**
     * Every value kryo reads is reported to the engine's {@link TrackingKryo} tracker (depth, count,
     * deadline, hash cost of keys before insertion); see {@link BoundedCollectionSerializers}.
     */
    @Override
    public Object deserialize(InputStream in, Class<?> expectedType, DecodeBudget budget) throws SerializationException {
        Engine engine = pool.obtain();
        boolean healthy = false;
        engine.kryo.tracker.start(budget);
        InputBuffer buffer = null;
        try {
            // The whole value in memory, so every claimed length can be checked against what is left.
            buffer = InputBuffer.readAll(in);
            engine.input.setBuffer(buffer.bytes(), 0, buffer.length());
            Object value = engine.kryo.readClassAndObject(engine.input);
            healthy = true;
            return value;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            throw SerializationFailures.decodeFailed("kryo", expectedType, e, registration, !registered.isEmpty());
        } finally {
            release(engine, healthy);
            if (buffer != null) {
                buffer.release();
            }
        }
    }

    /**
     * Reads a heap buffer's bytes in place (kryo's input is a byte array: no copy), a direct one after
     * one bulk copy into this thread's {@link InputBuffer}.
     */
    @Override
    public Object deserialize(ByteBuffer in, Class<?> expectedType, DecodeBudget budget) throws SerializationException {
        Engine engine = pool.obtain();
        boolean healthy = false;
        engine.kryo.tracker.start(budget);
        InputBuffer buffer = null;
        try {
            if (in.hasArray()) {
                engine.input.setBuffer(in.array(), in.arrayOffset() + in.position(), in.remaining());
            } else {
                buffer = InputBuffer.copyOf(in);
                engine.input.setBuffer(buffer.bytes(), 0, buffer.length());
            }
            Object value = engine.kryo.readClassAndObject(engine.input);
            healthy = true;
            return value;
        } catch (RuntimeException | StackOverflowError e) {
            throw SerializationFailures.decodeFailed("kryo", expectedType, e, registration, !registered.isEmpty());
        } finally {
            release(engine, healthy);
            if (buffer != null) {
                buffer.release();
            }
        }
    }

    private void release(Engine engine, boolean healthy) {
        engine.kryo.tracker.finish();
        engine.output.reset();
        engine.input.setBuffer(NO_BYTES); // do not keep the thread's input buffer reachable from the pool
        if (engine.output.getBuffer().length > MAX_POOLED_BUFFER_BYTES) {
            // a large value grew it: keep the engine (costly to build) but not the large buffer
            engine.output.setBuffer(new byte[BUFFER_BYTES], -1);
        }
        // After a failure kryo may hold half a graph; drop the instance rather than reuse it.
        if (healthy) {
            pool.free(engine);
        }
    }

    /** Bytes of buffers held by the engines now idle in the pool (for tests; briefly takes them all). */
    long pooledBufferBytes() {
        List<Engine> idle = pool.takeIdle();
        long bytes = 0;
        for (Engine e : idle) {
            bytes += e.output.getBuffer().length + (e.input.getBuffer() == null ? 0 : e.input.getBuffer().length);
        }
        idle.forEach(pool::free);
        return bytes;
    }

    @Override
    public String toString() {
        return "KryoSerializer{registered=" + registered.size() + ", compatible=" + compatible + "}";
    }
}
