package io.kestrel.rpc.api.serialization;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.internal.ByteBufferInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Encodes and decodes one value per call. Instances are created by {@link Serialization#create}
 * with fixed options and are thread-safe: one instance serves every connection and thread.
 *
 * <p>Every implementation checks each class named in the input against the
 * {@link ClassAllowlist} of its options <em>before</em> loading or instantiating it, and throws
 * {@link io.kestrel.rpc.api.ClassNotAllowedException} for a refused one.
 */
public interface Serializer {
    /** Stable wire id written in every frame header; see {@link SerializerIds}. */
    byte id();

    /** Short name users configure, e.g. "kryo". */
    String name();

    /**
     * Writes {@code value} (may be null) to {@code out}. The stream is the frame's buffer: do not
     * close it. Bytes written go straight into the frame's pooled buffers (a large value spans
     * several of them, never copied to grow one); writing in chunks of a few KB is cheapest. Implementations write the value's runtime type where the format needs it, so that a
     * subtype of the declared type, or a {@link Throwable}, reads back as itself.
     */
    void serialize(Object value, OutputStream out) throws SerializationException;

    /**
     * Reads one value written by {@link #serialize}. {@code in} holds exactly the bytes of that value.
     *
     * @param expectedType the declared type at the reading side (a method's parameter or return
     *     type, or {@code Object.class} when unknown); formats that do not record types use it.
     */
    Object deserialize(InputStream in, Class<?> expectedType) throws SerializationException;

    /**
     * Reads one value like {@link #deserialize(InputStream, Class)}, spending at most what
     * {@code budget} allows: a value nested too deeply, holding too many values, or costing too much
     * hashing, and decoding still running when the budget's deadline passes, fail with
     * {@link io.kestrel.rpc.api.DecodeLimitException} (a {@link SerializationException}). Pass one
     * budget for all values of one call.
     *
     * <p>The default ignores the budget and calls {@link #deserialize(InputStream, Class)}: a
     * serializer that does not override this cannot bound its work, and its
     * {@link Serialization#boundsDecodeWork()} must say so. The built-in serializers override it;
     * their two-argument form uses {@code DecodeBudget.of(decodeLimits())}, no deadline.
     */
    default Object deserialize(InputStream in, Class<?> expectedType, DecodeBudget budget) throws SerializationException {
        return deserialize(in, expectedType);
    }

    /**
     * Reads one value like {@link #deserialize(InputStream, Class, DecodeBudget)} from the bytes between
     * {@code in}'s position and limit: the frame's own memory, a heap or a direct buffer, so an engine
     * that can read memory in place needs no copy of the value. The buffer is valid only during this
     * call (its memory is reused afterwards): nothing read may keep a reference to it. Its position
     * afterwards is unspecified.
     *
     * <p>The default reads through an {@link InputStream} over {@code in}, so a serializer written
     * against the stream methods only keeps working. The transport calls this form.
     */
    default Object deserialize(ByteBuffer in, Class<?> expectedType, DecodeBudget budget) throws SerializationException {
        return deserialize(new ByteBufferInputStream(in), expectedType, budget);
    }

    /**
     * The limits this serializer was created with ({@link SerializationOptions#decodeLimits()}), for
     * building a per-call {@link DecodeBudget}. Default: {@link DecodeLimits#defaults()}.
     */
    default DecodeLimits decodeLimits() {
        return DecodeLimits.defaults();
    }

    /**
     * Reads several values written one after another into one stream, as Apache Dubbo's bodies are (a format
     * such as hessian2 shares class definitions and references among them), spending at most what
     * {@code budget} allows for all of them. {@code body} is called once with a reader that is valid only
     * during the call; what it returns is returned. Every class named in the input is checked against the
     * allowlist before it is loaded, as for {@link #deserialize(InputStream, Class, DecodeBudget)}.
     *
     * @throws UnsupportedOperationException for a format that cannot (the default); the message names it
     */
    default <R> R readSequence(InputStream in, DecodeBudget budget, SequenceBody<ValueReader, R> body)
            throws SerializationException {
        throw new UnsupportedOperationException("serialization " + name() + " cannot read a sequence of values"
                + " (the dubbo protocol needs it); use hessian2");
    }

    /**
     * Writes several values one after another into {@code out}, the counterpart of {@link #readSequence}.
     *
     * @throws UnsupportedOperationException for a format that cannot (the default)
     */
    default void writeSequence(OutputStream out, SequenceBody<ValueWriter, Void> body) throws SerializationException {
        throw new UnsupportedOperationException("serialization " + name() + " cannot write a sequence of values"
                + " (the dubbo protocol needs it); use hessian2");
    }

    /** Reads the next value of a sequence; see {@link #readSequence}. Not thread-safe. */
    interface ValueReader {
        /** The next value; {@code expectedType} as for {@link #deserialize(InputStream, Class)}. */
        Object read(Class<?> expectedType) throws java.io.IOException;

        /** Whether every value was read. */
        boolean atEnd() throws java.io.IOException;
    }

    /** Writes the next value of a sequence; see {@link #writeSequence}. Not thread-safe. */
    interface ValueWriter {
        void write(Object value) throws java.io.IOException;
    }

    /** What reads or writes the values of one sequence. */
    @FunctionalInterface
    interface SequenceBody<S, R> {
        R run(S values) throws java.io.IOException;
    }
}
