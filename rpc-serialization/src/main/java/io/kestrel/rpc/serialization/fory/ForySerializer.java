package io.kestrel.rpc.serialization.fory;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.DecodeLimitException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.serialization.internal.AllowlistClassLoader;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import io.kestrel.rpc.serialization.internal.ContextLoaderScoped;
import io.kestrel.rpc.serialization.internal.InputBuffer;
import io.kestrel.rpc.serialization.internal.SerializationFailures;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.fory.Fory;
import org.apache.fory.ThreadSafeFory;
import org.apache.fory.config.CompatibleMode;
import org.apache.fory.config.Language;
import org.apache.fory.exception.InsecureException;
import org.apache.fory.memory.MemoryBuffer;

/**
 * Thread-safe fory serializer. Fory instances are not thread-safe; fory's own
 * {@link ThreadSafeFory} (a pool of configured instances, each with its generated serializers and
 * write buffer) serves concurrent calls. One such pool exists per thread context class loader
 * ({@link ContextLoaderScoped}), because fory caches classes by name.
 *
 * <p>Reading needs the whole value in memory: the frame's buffer itself (heap or direct, read in
 * place through {@link #deserialize(ByteBuffer, Class, DecodeBudget)}), or a stream collected first, so fory can bound
 * every length it reads by the bytes that are really there, and a value that ends before or after
 * the input is an error rather than a silent partial read.
 *
 * <p>Decode budget: fory's own depth limit is set to {@link DecodeLimits#maxDepth()} of the options
 * (fory fixes it when an engine is built, so a per-call budget cannot change it); the common JDK
 * collections and maps are read by {@link BudgetedContainerSerializers}, which count their elements
 * (and look at the deadline), count the nesting of hash-based ones and cost each key's hash before
 * insertion. The budget of the current read is found through a thread-local, set for the call.
 * Per-thread state: fory shrinks an engine's write buffer back to {@value #KEPT_BUFFER_BYTES} bytes
 * after a larger value ({@code withBufferSizeLimitBytes}); the read buffer is {@link InputBuffer}'s.
 */
final class ForySerializer implements Serializer {
    /**
     * Fory's estimate of the memory one deserialized graph may take (collections, maps, arrays and
     * objects; strings and primitive arrays are bounded by the input bytes instead). A hostile value
     * claiming more fails before allocating it. Fory's default, made explicit.
     */
    static final long MAX_GRAPH_MEMORY_BYTES = 128L * 1024 * 1024;

    /** Write buffer size fory shrinks back to after writing a larger value. */
    static final int KEPT_BUFFER_BYTES = InputBuffer.MAX_KEPT_BYTES;

    /**
     * Per thread, what the read or write under way needs: at {@link #ACTIVE} the read's budget (null outside a read),
     * at {@link #LAST_REFUSED} the last class name the type checker refused during the current call. One thread-local
     * looked up once per value instead of three set or removed (a {@code ThreadLocalMap.set} per value was 3% of a
     * stream consumer's CPU); an {@code Object[]}, a JDK class, so that an application thread that decoded an answer
     * keeps nothing that holds this class loader.
     */
    private static final ThreadLocal<Object[]> STATE = ThreadLocal.withInitial(() -> new Object[2]);
    private static final int ACTIVE = 0;
    private static final int LAST_REFUSED = 1;

    private final ClassFilter filter;
    private final List<Class<?>> registered;
    private final boolean compatible;
    private final DecodeLimits limits;
    private final ForyTypeDefLimits typeDefs;
    private final ContextLoaderScoped<ThreadSafeFory> engines;

    /** Which classes this side registers, for messages. */
    private final String registration;

    ForySerializer(SerializationOptions options) {
        this.registration = options.registrationDescription();
        this.filter = new ClassFilter(options.allowlist());
        this.registered = options.registeredClasses();
        this.compatible = options.compatible();
        this.limits = options.decodeLimits();
        this.typeDefs = ForyTypeDefLimits.fromSystemProperties();
        this.engines = new ContextLoaderScoped<>(this::newFory);
    }

    private ThreadSafeFory newFory(ClassLoader context, ClassLoader home) {
        ThreadSafeFory fory = Fory.builder()
                .withLanguage(Language.JAVA)
                .withRefTracking(true)
                .withCompatibleMode(compatible ? CompatibleMode.COMPATIBLE : CompatibleMode.SCHEMA_CONSISTENT)
                // Plain mode: write a hash of each class's field layout, so a reader with another
                // version of the class fails instead of misreading (the compatibility matrix test
                // shows fory without it misreads a removed field when the value is nested).
                .withClassVersionCheck(!compatible)
                .requireClassRegistration(false)
                .suppressClassRegistrationWarnings(true)
                .withClassLoader(new AllowlistClassLoader(context, home, filter))
                .withTypeChecker((resolver, className) -> isAllowed(className))
                .withMaxGraphMemoryBytes(MAX_GRAPH_MEMORY_BYTES)
                .withMaxDepth(limits.maxDepth())
                // Compatible mode: the class definitions a stream brings are cached per pool, so their number,
                // size and fields are bounded (ForyTypeDefLimits), and a class this side cannot load is an
                // error rather than a stand-in cached under the caller's name.
                .withMaxSchemaVersionsPerType(typeDefs.maxSchemaVersionsPerType())
                .withMaxAverageSchemaVersionsPerType(typeDefs.maxAverageSchemaVersionsPerType())
                .withMaxTypeMetaBytes(typeDefs.maxTypeMetaBytes())
                .withMaxTypeFields(typeDefs.maxTypeFields())
                .withDeserializeUnknownClass(false)
                .withBufferSizeLimitBytes(KEPT_BUFFER_BYTES)
                .withName("kestrel-fory" + (compatible ? "-compatible" : ""))
                .buildThreadSafeFory();
        fory.registerCallback(f -> BudgetedContainerSerializers.register(f, ForySerializer::activeBudget));
        ClassLoader exceptionLoader = context != null ? context : home;
        fory.registerCallback(f -> f.registerSerializerFactory(
                ForyJdkThrowableSerializer.factory(filter, exceptionLoader, ForySerializer::activeBudget)));
        for (Class<?> c : registered) {
            fory.register(c);
        }
        return fory;
    }

    /**
     * Fory's type checker. Fory calls it with every class name it is about to load from a stream
     * (before loading) and with every class it first meets while writing, and refuses a false answer
     * with its own {@code InsecureException}. It also asks, as a mere cache hint, about declared field
     * types such as {@code java.util.List}; so this must answer, not throw. The refused name is kept
     * per thread so the failure can be reported as the allowlist's own exception.
     */
    private boolean isAllowed(String className) {
        if (filter.isAllowed(className)) {
            return true;
        }
        STATE.get()[LAST_REFUSED] = className;
        return false;
    }

    /**
     * The allowlist's {@link ClassNotAllowedException} if fory failed because {@link #isAllowed}
     * refused a class during this call, else null.
     */
    private ClassNotAllowedException refusal(Throwable e) {
        String refused = (String) STATE.get()[LAST_REFUSED];
        if (refused == null) {
            return null;
        }
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof InsecureException && t.getMessage() != null && t.getMessage().contains(refused)) {
                return filter.allowlist().refused(refused);
            }
        }
        return null;
    }

    @Override
    public byte id() {
        return SerializerIds.FORY;
    }

    @Override
    public String name() {
        return "fory";
    }

    @Override
    public void serialize(Object value, OutputStream out) throws SerializationException {
        STATE.get()[LAST_REFUSED] = null;
        try {
            engines.current().serialize(out, value);
        } catch (RuntimeException | StackOverflowError e) {
            ClassNotAllowedException refused = refusal(e);
            throw refused != null ? refused : SerializationFailures.encodeFailed("fory", value, e);
        }
    }

    private static DecodeBudget activeBudget() {
        DecodeBudget b = (DecodeBudget) STATE.get()[ACTIVE];
        return b != null ? b : DecodeBudget.defaults();
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
        InputBuffer input;
        try {
            input = InputBuffer.readAll(in);
        } catch (IOException e) {
            throw SerializationFailures.decodeFailed("fory", expectedType, e, registration, !registered.isEmpty());
        }
        return read(MemoryBuffer.fromByteArray(input.bytes(), 0, input.length()), input.length(), expectedType, budget);
    }

    /** Reads the buffer's bytes in place, heap or direct (fory reads both): no copy of the value. */
    @Override
    public Object deserialize(ByteBuffer in, Class<?> expectedType, DecodeBudget budget) throws SerializationException {
        return read(MemoryBuffer.fromByteBuffer(in), in.remaining(), expectedType, budget);
    }

    private Object read(MemoryBuffer buffer, int length, Class<?> expectedType, DecodeBudget budget) {
        Object[] state = STATE.get();
        state[LAST_REFUSED] = null;
        state[ACTIVE] = budget;
        try {
            if (length == 0) {
                throw new IOException("empty input");
            }
            Object value = engines.current().deserialize(buffer);
            if (buffer.readerIndex() != length) {
                throw new IOException("value used " + buffer.readerIndex() + " bytes but the input holds "
                        + length + (buffer.readerIndex() > length ? ": truncated" : ": trailing data"));
            }
            return value;
        } catch (IOException | RuntimeException | StackOverflowError e) {
            ClassNotAllowedException refused = refusal(e);
            if (refused != null) {
                throw refused;
            }
            SerializationException typeDefs = typeDefLimit(e, expectedType);
            if (typeDefs != null) {
                throw typeDefs;
            }
            DecodeLimitException depth = depthLimit(e, budget);
            throw SerializationFailures.decodeFailed("fory", expectedType, depth != null ? depth : e, registration, !registered.isEmpty());
        } finally {
            state[ACTIVE] = null; // the entry stays for the thread's next read
        }
    }

    /**
     * Fory's refusal of a class definition past {@link ForyTypeDefLimits} (its message names its own builder
     * option), as ours naming the system property; nothing of the caller's definition is quoted.
     */
    private static SerializationException typeDefLimit(Throwable e, Class<?> expectedType) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            String m = t.getMessage();
            if (m == null || !m.contains("The data may be malicious")) {
                continue;
            }
            String what;
            String property;
            if (m.contains("maxTypeMetaBytes")) {
                what = "a class definition larger than";
                property = ForyTypeDefLimits.MAX_TYPE_META_BYTES_PROPERTY;
            } else if (m.contains("maxTypeFields")) {
                what = "a class definition with more fields than";
                property = ForyTypeDefLimits.MAX_TYPE_FIELDS_PROPERTY;
            } else if (m.contains("maxSchemaVersionsPerType")) {
                what = "more layouts of one class than";
                property = ForyTypeDefLimits.MAX_SCHEMA_VERSIONS_PER_TYPE_PROPERTY;
            } else {
                what = "more classes or class layouts in all than"; // fory's fixed 8,192 classes, or the average
                property = ForyTypeDefLimits.MAX_AVERAGE_SCHEMA_VERSIONS_PER_TYPE_PROPERTY;
            }
            return new SerializationException("fory could not deserialize a value (expected type "
                    + (expectedType == null ? "unknown" : expectedType.getName()) + "): the compatible-mode stream"
                    + " brings " + what + " this side keeps (-D" + property + "); nothing of it was kept. If such"
                    + " class versions are legitimate, raise it", t);
        }
        return null;
    }

    /** Fory's own depth refusal (an {@code InsecureException} about its max depth) as ours, naming the setting. */
    private DecodeLimitException depthLimit(Throwable e, DecodeBudget budget) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof InsecureException && t.getMessage() != null && t.getMessage().contains("max depth")) {
                DecodeLimitException limit = DecodeBudget.of(limits).refused(DecodeLimits.Limit.DEPTH,
                        "values are nested more than " + limits.maxDepth() + " deep");
                limit.initCause(t);
                return limit;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "ForySerializer{registered=" + registered.size() + ", compatible=" + compatible + "}";
    }
}
