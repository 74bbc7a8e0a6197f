package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.DecodeLimitException;
import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.IncomingCall;
import io.kestrel.rpc.transport.spi.RefusedException;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.kestrel.rpc.transport.internal.stream.ServerStream;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call on a business thread: drop it if it waited past its caller's deadline, decode the
 * arguments, run the method, answer (at once, or when an asynchronous method's stage completes).
 * Owns the request frame and releases it once the arguments are decoded.
 */
final class ServerCall extends ResponseAttachments implements Runnable, IncomingCall, BiConsumer<Object, Throwable> {
    private static final Logger log = LoggerFactory.getLogger(ServerCall.class);

    private final Frame frame;
    private final RequestDecoder.Head head;
    private final ServerMethod method;
    private final Serializer serializer;
    private final String remote;
    private final CallerIdentity caller;
    private final ResponseWriter out;
    private final Admission admission;
    private final AtomicInteger connectionCalls;
    /** When its frame was read (see {@link Frame#receivedNanos}): its deadline counts from there. */
    private final long receivedNanos;
    /** Set once the method was invoked: only work that ran can finish late. */
    private boolean ran;
    /** The stream of a streaming method's call (its answers); null for an ordinary call. */
    private final ServerStream stream;
    /** It runs on the I/O thread that read it, at once ({@link ServerMethod#direct()}). */
    private final boolean direct;

    ServerCall(Frame frame, RequestDecoder.Head head, ServerMethod method, boolean direct, Serializer serializer,
            String remote, CallerIdentity caller, ResponseWriter out, Admission admission,
            AtomicInteger connectionCalls, ServerStream stream) {
        this.stream = stream;
        this.direct = direct;
        this.caller = caller;
        this.connectionCalls = connectionCalls;
        this.frame = frame;
        this.receivedNanos = frame.receivedNanos();
        this.head = head;
        this.method = method;
        this.serializer = serializer;
        this.remote = remote;
        this.out = out;
        this.admission = admission;
    }

    @Override
    public void run() {
        // a direct method runs at once on the I/O thread that read it: nothing waited, its read's time is now
        long nowNanos = direct ? receivedNanos : System.nanoTime();
        boolean async = false;
        try {
            long waitedMs = (nowNanos - receivedNanos) / 1_000_000;
            int timeoutMs = head.timeoutMillis();
            if (timeoutMs > 0 && waitedMs >= timeoutMs) {
                frame.release();
                out.error(frame, Status.SERVER_TIMEOUT, method.displayName() + " request " + frame.requestId
                        + " waited " + waitedMs + " ms for a business thread, beyond the caller's timeout of "
                        + timeoutMs + " ms; dropped without running");
                return;
            }
            Object[] args;
            try {
                // decoding stops at the serializer's limits, and when the caller's deadline passes
                DecodeBudget budget = ThreadBudgets.start(serializer.decodeLimits(), timeoutMs > 0,
                        receivedNanos + timeoutMs * 1_000_000L, nowNanos);
                args = RequestDecoder.readArguments(frame.body, method.parameterTypes(), serializer, budget);
            } catch (RuntimeException e) {
                // the caller's deadline passing while decoding means nobody waits for the answer any more
                Status status = e instanceof DecodeLimitException d && d.limit() == DecodeLimits.Limit.DEADLINE
                        ? Status.SERVER_TIMEOUT : Status.BAD_REQUEST;
                out.error(frame, status, RequestDecoder.argumentsFailure(method.displayName(), serializer.name(), e));
                return;
            } finally {
                frame.release();
            }
            Object result;
            ran = true;
            try {
                result = method.invoke(args, this);
            } catch (Throwable t) {
                answerFailure(t);
                return;
            }
            if (result instanceof CompletableFuture<?> future && future.isDone()) {
                // already complete (a method that answers at once): answered here, no dependent stage per call
                answerDone(future);
            } else if (result instanceof CompletionStage<?> stage) {
                async = true;
                stage.whenComplete(this); // this call is the callback: no capturing lambda per call
            } else {
                answerValue(result);
            }
        } catch (Throwable t) {
            log.error("Unexpected failure serving {} request {} from {}", method.displayName(), frame.requestId, remote, t);
            out.error(frame, Status.SERVER_ERROR, "provider failed serving " + method.displayName() + ": " + t);
        } finally {
            if (!async) {
                finished();
            }
        }
    }

    /** The outcome of an asynchronous method's stage, on the thread that completed it: answers, then ends the call. */
    @Override
    public void accept(Object value, Throwable error) {
        try {
            answer(value, error);
        } finally {
            finished();
        }
    }

    private void answerDone(CompletableFuture<?> future) {
        Object value;
        try {
            value = future.join(); // done: returns or throws at once
        } catch (CompletionException | CancellationException e) {
            answer(null, e);
            return;
        }
        answer(value, null);
    }

    private void answer(Object value, Throwable error) {
        if (error != null) {
            answerFailure(unwrap(error));
        } else {
            answerValue(value);
        }
    }

    /** The method returned: its answer, or for a streaming method, its stream goes on (answered when it ends). */
    private void answerValue(Object value) {
        if (stream != null) {
            stream.started(value);
        } else {
            out.value(frame, method, serializer, value, answerAttachments());
        }
    }

    /** The request frame (owned by this call until it ran or was refused). */
    Frame frame() {
        return frame;
    }

    @Override
    public io.kestrel.rpc.api.stream.CallStreamObserver<Object> responseStream() {
        return stream;
    }

    @Override
    public void addStreamListener(io.kestrel.rpc.api.interceptor.StreamListener listener) {
        if (stream == null) {
            IncomingCall.super.addStreamListener(listener); // refuses
            return;
        }
        stream.addListener(listener);
    }

    @Override
    public Map<String, String> attachments() {
        return head.attachments();
    }

    @Override
    public String remoteAddress() {
        return remote;
    }

    @Override
    public CallerIdentity caller() {
        return caller;
    }

    @Override
    public long deadlineNanos() {
        int timeoutMs = head.timeoutMillis();
        return timeoutMs > 0 ? receivedNanos + timeoutMs * 1_000_000L : 0L;
    }

    @Override
    public int timeoutMillis() {
        return head.timeoutMillis();
    }

    @Override
    public int requestBytes() {
        return frame.bodyLength;
    }

    @Override
    public String serialization() {
        return serializer.name();
    }

    /** An exception the service threw, or a status the invocation layer chose ({@link RefusedException}). */
    private void answerFailure(Throwable t) {
        if (stream != null) {
            stream.onError(t); // answers as below, once, and ends the stream
            return;
        }
        if (t instanceof RefusedException r) {
            out.error(frame, r.status(), r.getMessage());
        } else {
            out.exception(frame, method, serializer, t);
        }
    }

    /** The call is answered: its budget, its connection's slot and its admission are given back. */
    private void finished() {
        if (stream != null && !ran) {
            stream.notStarted(); // refused before it ran (answered with the reason)
        }
        logIfLate();
        frame.done();
        connectionCalls.decrementAndGet();
        admission.finished();
    }

    /** Work that outlived its caller's deadline was wasted: say so ({@value ProviderLog#LATE}). */
    private void logIfLate() {
        int timeoutMs = head.timeoutMillis();
        if (ran && timeoutMs > 0) {
            long tookMs = (System.nanoTime() - receivedNanos) / 1_000_000;
            if (tookMs > timeoutMs) {
                ProviderLog.late(method.displayName(), method.displayName() + " finished after " + tookMs + " ms, beyond the caller's timeout of "
                        + timeoutMs + " ms: the consumer had given up and discards the answer. Make the method faster,"
                        + " or raise the timeout on the reference or the service", remote, frame.requestId);
            }
        }
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
