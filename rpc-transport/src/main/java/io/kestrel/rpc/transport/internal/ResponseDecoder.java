package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.ConsumerLimits;
import io.kestrel.rpc.api.MissingClassException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.RemoteOrigin;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.AttachedValue;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumer side of the response body: reads what {@link ResponseEncoder} writes (the byte diagram
 * is there) and completes the pending call with the value, the provider's exception, or the
 * exception its status stands for. One per connection.
 *
 * <p>What a provider sends is read within bounds: a value within its serializer's decode limits and the
 * call's deadline; error text cut at {@link ConsumerLimits#maxErrorMessageBytes()}; a serialized
 * exception (whose decoding is not the fast path and may be costly) on the transport's error-decoding
 * threads, within the same limits and deadline, never on the I/O thread. When those threads are all
 * busy, or decoding fails, the exception is rebuilt from its class name and message instead.
 */
public final class ResponseDecoder {
    private static final Logger log = LoggerFactory.getLogger(ResponseDecoder.class);

    private final String address;
    private final int payloadBytes;
    private final ClassAllowlist allowlist;
    /** Where serialized exceptions are decoded (null: on the calling thread, for tests). */
    private final Executor errorDecoding;
    private final int maxTextBytes = ConsumerLimits.maxErrorMessageBytes();

    /**
     * @param address the provider, for messages
     * @param payloadBytes this consumer's payload limit, for the oversized-response message
     * @param allowlist which exception classes a provider may name when one must be rebuilt from
     *     its type and message
     */
    public ResponseDecoder(String address, int payloadBytes, ClassAllowlist allowlist) {
        this(address, payloadBytes, allowlist, null);
    }

    /** As above; serialized exceptions are decoded on {@code errorDecoding} (bounded: it may refuse). */
    public ResponseDecoder(String address, int payloadBytes, ClassAllowlist allowlist, Executor errorDecoding) {
        this.address = address;
        this.payloadBytes = payloadBytes;
        this.allowlist = allowlist;
        this.errorDecoding = errorDecoding;
    }

    /**
     * Completes {@code call} from its response frame; never throws. Returns true when the frame was
     * handed to the error-decoding threads, which then release it (and its budget); else the caller does.
     */
    public boolean complete(PendingCall call, Frame f) {
        try {
            if (f.status == Status.OK.code() && !f.oversized()) {
                call.complete(readValue(f, call));
            } else if (errorDecoding != null && f.status == Status.SERVICE_ERROR.code() && !f.oversized()) {
                return decodeElsewhere(call, f);
            } else {
                call.completeExceptionally(failure(call, f, true));
            }
        } catch (Throwable t) {
            call.completeExceptionally(decodeFailure(call, t));
        }
        return false;
    }

    /**
     * Completes {@code call} from its response frame on this thread, a blocking caller's own (see
     * {@link io.kestrel.rpc.transport.ThreadlessWait}): a serialized exception too is decoded here, within the same
     * limits and deadline, as no I/O thread waits for it. Never throws; the caller releases the frame.
     */
    void completeHere(PendingCall call, Frame f) {
        try {
            if (f.status == Status.OK.code() && !f.oversized()) {
                call.complete(readValue(f, call));
            } else {
                call.completeExceptionally(failure(call, f, true));
            }
        } catch (Throwable t) {
            call.completeExceptionally(decodeFailure(call, t));
        }
    }

    private boolean decodeElsewhere(PendingCall call, Frame f) {
        try {
            errorDecoding.execute(() -> {
                try {
                    call.completeExceptionally(failure(call, f, true));
                } finally {
                    f.release();
                    f.done();
                }
            });
            return true;
        } catch (RejectedExecutionException busy) {
            // every decoding thread is busy (a provider flooding errors, or shutdown): the name and message only
            call.completeExceptionally(failure(call, f, false));
            return false;
        }
    }

    /** The method and provider, for messages (built only when one is needed). */
    private String where(PendingCall call) {
        return call.method.displayName() + " on provider " + address;
    }

    /**
     * What a response that is not a value stands for: the provider's exception (deserialized only with
     * {@code deserialize}), or its status's.
     */
    private Throwable failure(PendingCall call, Frame f, boolean deserialize) {
        try {
            if (f.overBudget) {
                return overBudget(where(call), f.bodyLength);
            } else if (f.oversized()) {
                return oversized(where(call), f.bodyLength, payloadBytes);
            } else if (f.status == Status.SERVICE_ERROR.code()) {
                return remoteException(f, call, where(call), deserialize);
            } else {
                return Status.toException(f.status, Wire.readStringCut(f.body, maxTextBytes) + " [" + where(call) + "]");
            }
        } catch (Throwable t) {
            return decodeFailure(call, t);
        }
    }

    /**
     * A response of {@code bodyLength} bytes (of the call {@code where} names) was skipped: it did not fit the
     * consumer's memory budget for responses. Every protocol's consumer says it so.
     */
    public static PayloadTooLargeException overBudget(String where, long bodyLength) {
        return new PayloadTooLargeException("the response of " + where + " (" + bodyLength
                + " bytes) does not fit this consumer's memory budget for responses of "
                + ConsumerLimits.memoryBudgetBytes() + " bytes, which other responses (arriving or not yet"
                + " decoded) hold now; it was skipped. Retry later, or raise -D"
                + ConsumerLimits.MEMORY_BUDGET_PROPERTY);
    }

    /** A response of {@code bodyLength} bytes was skipped: over the reference's payload limit. */
    public static PayloadTooLargeException oversized(String where, long bodyLength, int payloadBytes) {
        return new PayloadTooLargeException("the response of " + where + " is " + bodyLength
                + " bytes, over this consumer's payload limit of " + payloadBytes
                + " bytes; return less data or raise payload on the reference");
    }

    private Throwable decodeFailure(PendingCall call, Throwable t) {
        String where = where(call);
        return t instanceof MissingClassException m ? new MissingClassException(m.className(),
                "cannot decode the response of " + where + ": the consumer cannot load class " + m.className()
                + ", which the provider returned (the allowlist accepts it, but it is not on the consumer's class"
                + " path). Deploy the jar that holds " + m.className() + " with the consumer", m)
                : t instanceof RpcException ? t
                : new SerializationException("cannot decode the response of " + where + ": " + t, t);
    }

    /** The result, read within the serializer's decode limits and the call's own deadline. */
    private Object readValue(Frame f, PendingCall call) throws IOException {
        ByteBuf body = f.body;
        if ((f.flags & Wire.FLAG_ATTACHMENTS) != 0) {
            Map<String, String> attachments = Wire.readAttachments(body, "response");
            Object value = readPlainValue(f, call);
            return attachments.isEmpty() ? value : new AttachedValue(value, attachments);
        }
        return readPlainValue(f, call);
    }

    private Object readPlainValue(Frame f, PendingCall call) throws IOException {
        ByteBuf body = f.body;
        if (body.readByte() == ResponseEncoder.RESULT_NULL) {
            return null;
        }
        Serializer serializer = serializer(f, call);
        DecodeBudget budget = ThreadBudgets.start(serializer.decodeLimits(), true, call.deadlineNanos, f.receivedNanos);
        return Wire.readValue(body, body.readerIndex(), body.readableBytes(), serializer, call.returnType, budget);
    }

    private Serializer serializer(Frame f, PendingCall call) {
        Serializer serializer = call.serializer;
        if (f.serializationId != serializer.id()) {
            throw new SerializationException("provider " + address + " answered with serialization id "
                    + f.serializationId + " to a " + serializer.name() + " (id " + serializer.id() + ") request");
        }
        return serializer;
    }

    /**
     * The provider's exception as itself when this side can read it (its class allowed: JDK, named
     * in the interface, or from the interface's code source), else rebuilt from type and message, else
     * a {@link RemoteInvocationException}; always marked with a {@link RemoteOrigin} naming the provider.
     */
    private Throwable remoteException(Frame f, PendingCall call, String where, boolean deserialize) {
        ByteBuf body = f.body;
        String className = Wire.readString(body, maxTextBytes);
        String message = Wire.readStringCut(body, maxTextBytes);
        Throwable result = null;
        if (deserialize && body.isReadable()) {
            try {
                Serializer serializer = serializer(f, call);
                DecodeBudget budget = ThreadBudgets.start(serializer.decodeLimits(), true, call.deadlineNanos, f.receivedNanos);
                Object o = Wire.readValue(body, body.readerIndex(), body.readableBytes(), serializer, Throwable.class,
                        budget);
                if (o instanceof Throwable t) {
                    result = RemoteExceptions.withMessage(t, message);
                }
            } catch (RuntimeException | StackOverflowError e) {
                log.debug("Cannot deserialize {} from {}: {}", className, where, e.toString());
            }
        }
        if (result == null) {
            Throwable rebuilt = rebuild(className, message);
            result = rebuilt != null ? rebuilt : new RemoteInvocationException(className, message, where);
        }
        result.addSuppressed(new RemoteOrigin(address, call.method.displayName()));
        return result;
    }

    /** Recreates an allowed exception type from its name and message, when it has a (String) constructor. */
    private Throwable rebuild(String className, String message) {
        if (!allowlist.isAllowed(className)) {
            return null;
        }
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            Class<?> type = Class.forName(className, false, loader != null ? loader : ResponseDecoder.class.getClassLoader());
            if (Throwable.class.isAssignableFrom(type)) {
                Throwable t = (Throwable) type.getConstructor(String.class).newInstance(message);
                t.setStackTrace(new StackTraceElement[0]); // not this event loop's frames: the provider's are unknown
                return t;
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            log.debug("Cannot rebuild remote exception {}: {}", className, e.toString());
        }
        return null;
    }
}
