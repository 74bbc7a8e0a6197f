package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.util.collection.IntObjectHashMap;

/**
 * One connection's method references: the number a consumer gave each method descriptor, bound to
 * the method it resolves to and to the serializer its frames use. Descriptors are resolved once per
 * reference and serializers once per reference and serialization id, never per call. A failed
 * resolution is answered with its full message once and remembered only as a shared marker, so
 * hostile definitions cannot make the server hold their text. Event loop only.
 */
public final class MethodTable {
    private static final Entry NOT_FOUND = new Entry(null, Status.SERVICE_NOT_FOUND,
            "this method reference names a service or method the provider does not export (see the answer to its definition)");
    private static final Entry UNRESOLVABLE = new Entry(null, Status.BAD_REQUEST,
            "this method reference could not be resolved (see the answer to its definition)");

    private final ServerDispatcher dispatcher;
    private final IntObjectHashMap<Entry> entries = new IntObjectHashMap<>();

    public MethodTable(ServerDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    /** A method reference: the method, or the status and message that answer calls to it. */
    public static final class Entry {
        private final ServerMethod method;
        private final Status failure;
        private final String error;
        private final boolean direct;
        private byte serializationId;
        private Serializer serializer;

        private Entry(ServerMethod method, Status failure, String error) {
            this.method = method;
            this.failure = failure;
            this.error = error;
            this.direct = method != null && method.direct();
        }

        /** Whether calls run on the I/O thread ({@link ServerMethod#direct()}, asked once). */
        public boolean direct() {
            return direct;
        }

        /** The method, or null when the reference did not resolve. */
        public ServerMethod method() {
            return method;
        }

        /** Why the reference did not resolve (null when it did). */
        public Status failure() {
            return failure;
        }

        public String error() {
            return error;
        }

        /**
         * The method's serializer for this id, cached until a frame uses another id.
         *
         * @throws io.kestrel.rpc.api.BadRequestException when the id is unknown or not accepted
         */
        public Serializer serializer(byte id) {
            Serializer s = serializer;
            if (s == null || id != serializationId) {
                s = method.serializer(id);
                serializer = s;
                serializationId = id;
            }
            return s;
        }
    }

    /** Defines (or redefines) a reference; the entry returned carries its full failure message. */
    public Entry define(int ref, String descriptor) {
        Entry resolved = resolve(descriptor);
        entries.put(ref, resolved.method != null ? resolved
                : resolved.failure == Status.SERVICE_NOT_FOUND ? NOT_FOUND : UNRESOLVABLE);
        return resolved;
    }

    /**
     * A reference defined earlier on this connection.
     *
     * @throws CorruptedFrameException when the connection never defined it
     */
    public Entry get(int ref) {
        Entry e = entries.get(ref);
        if (e == null) {
            throw new CorruptedFrameException("unknown method reference " + ref + " on this connection");
        }
        return e;
    }

    private Entry resolve(String descriptor) {
        try {
            return new Entry(dispatcher.resolve(descriptor), null, null);
        } catch (ServiceNotFoundException e) {
            return new Entry(null, Status.SERVICE_NOT_FOUND, bounded(e.getMessage()));
        } catch (RuntimeException e) {
            return new Entry(null, Status.BAD_REQUEST, bounded("cannot resolve " + descriptor + ": " + e.getMessage()));
        }
    }

    private static String bounded(String message) {
        return message == null || message.length() <= 1024 ? message : message.substring(0, 1024) + "...";
    }
}
