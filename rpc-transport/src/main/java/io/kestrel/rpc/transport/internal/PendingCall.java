package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.kestrel.rpc.transport.ThreadlessWait;
import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One call sent (or about to be sent) and not yet answered. Whoever ends it first — its response,
 * its deadline, a failed write or the connection closing — removes it from its {@link PendingCalls}
 * table; the others find it gone and do nothing.
 *
 * <p>One object per call on the transport's path: it is the call's future (completing it also tells
 * one listener, on the completing thread, with no dependent stage), the request as the codec writes
 * it (what {@link RpcRequest} carries, copied into fields), the message queued for the event loop
 * (its serialized arguments travel on it) and the entry of the pending table. Before, these were
 * five objects per call (request, pending entry, future, outbound message, serialized-arguments pair).
 */
public final class PendingCall extends CallFuture {
    final PendingCalls table;
    final long id;
    final MethodRef method;
    final Serializer serializer;
    final Object[] arguments;
    final Map<String, String> attachments;
    final int timeoutMillis;
    final Class<?> returnType;
    final long deadlineNanos; // when it was created plus its timeout (no start field: 8 bytes less per call)
    /** Set once it has left its table. */
    volatile boolean ended;
    /** The serialized arguments on their way to the codec, which takes them ({@link #takeArgumentBytes}). */
    private ByteBuf argumentBytes;
    private int[] argumentLengths;
    /** The blocking caller that decodes this call's answer on its own thread, or null (the I/O thread does). */
    ThreadlessWait caller;
    /** The answer handed to {@link #caller}, with the decoder that reads it; null before and after. */
    private Frame heldAnswer;
    private ResponseDecoder heldDecoder;

    PendingCall(PendingCalls table, long id, MethodRef method, Serializer serializer, Object[] arguments,
            Map<String, String> attachments, int timeoutMillis, Class<?> returnType,
            BiConsumer<Object, Throwable> listener) {
        super(listener);
        this.table = table;
        this.id = id;
        this.method = method;
        this.serializer = serializer;
        this.arguments = arguments;
        this.attachments = attachments;
        this.timeoutMillis = timeoutMillis;
        this.returnType = returnType;
        this.deadlineNanos = System.nanoTime() + timeoutMillis * 1_000_000L;
    }

    /** When it was created, on {@link System#nanoTime()}'s clock. */
    long startNanos() {
        return deadlineNanos - timeoutMillis * 1_000_000L;
    }

    public long id() {
        return id;
    }

    /** When the call's timeout ends, on {@link System#nanoTime}'s clock: decoding its answer stops there. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    public MethodRef method() {
        return method;
    }

    public Serializer serializer() {
        return serializer;
    }

    public int timeoutMillis() {
        return timeoutMillis;
    }

    public Map<String, String> attachments() {
        return attachments;
    }

    /** The request as a record, built on each call of this (for messages, tests and the dubbo codec). */
    public RpcRequest request() {
        return new RpcRequest(method, serializer, arguments, attachments, timeoutMillis, returnType);
    }

    /** This call itself: it is its own future. Completes with the provider's result: the value, or the exception it threw. */
    public CompletableFuture<Object> future() {
        return this;
    }

    /** Still waiting for its answer (not timed out, failed or answered). */
    public boolean isPending() {
        return !ended;
    }

    /** Ends the call with {@code error} if it is still pending. */
    public void fail(Throwable error) {
        if (table.remove(this)) {
            completeExceptionally(error);
        }
    }

    /**
     * Hands the serialized arguments to the codec with the call (before it is queued).
     *
     * @param bytes the arguments back to back; owned by the call until the codec takes them
     * @param lengths byte length of every argument but the last (null: none)
     */
    public void attachArguments(ByteBuf bytes, int[] lengths) {
        this.argumentBytes = bytes;
        this.argumentLengths = lengths;
    }

    /** The serialized arguments, now owned by the caller (who writes or releases them); null once taken. */
    public ByteBuf takeArgumentBytes() {
        ByteBuf bytes = argumentBytes;
        argumentBytes = null;
        return bytes;
    }

    /** Byte length of every argument but the last (read before {@link #takeArgumentBytes}). */
    int[] argumentLengths() {
        int[] lengths = argumentLengths;
        return lengths != null ? lengths : RequestEncoder.NO_LENGTHS;
    }

    /** Has {@code wait}'s owner decode the answer (null: the I/O thread does); set before the call is queued. */
    public void answerOn(ThreadlessWait wait) {
        this.caller = wait;
    }

    /**
     * On the I/O thread, after the call left its table: hands its answer to the waiting caller, who decodes it
     * ({@link #decodeHeldAnswer}). False when there is none or it does not wait now; the I/O thread then decodes.
     */
    boolean handAnswerToCaller(Frame f, ResponseDecoder decoder) {
        ThreadlessWait wait = caller;
        if (wait == null) {
            return false;
        }
        heldAnswer = f;
        heldDecoder = decoder;
        if (wait.handOver(this)) {
            return true; // the hand-over publishes both fields to the caller
        }
        heldAnswer = null;
        heldDecoder = null;
        return false;
    }

    /**
     * On the caller's thread: decodes the answer handed over (within the decode limits and this call's deadline,
     * as on the I/O thread), completes the call, and frees the frame and its memory budget.
     */
    public void decodeHeldAnswer() {
        Frame f = heldAnswer;
        ResponseDecoder decoder = heldDecoder;
        heldAnswer = null;
        heldDecoder = null;
        if (f == null) {
            return;
        }
        try {
            decoder.completeHere(this, f);
        } finally {
            f.release();
            f.done();
        }
    }

    /** On the caller's thread, which stopped waiting: frees the answer handed over unread and fails the call. */
    public void dropHeldAnswer(Throwable why) {
        Frame f = heldAnswer;
        heldAnswer = null;
        heldDecoder = null;
        if (f == null) {
            return;
        }
        try {
            f.release();
            f.done();
        } finally {
            completeExceptionally(why);
        }
    }

    @Override
    public String toString() {
        return "PendingCall{" + method.displayName() + ", request " + id + (ended ? ", ended" : "") + "}";
    }
}
