package io.kestrel.rpc.api;

import io.kestrel.rpc.api.internal.ServerContext;
import io.kestrel.rpc.api.security.CallerIdentity;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Per-thread call context, the same type on both sides.
 *
 * <p><b>Request attachments.</b> On the consumer, attachments set here before a call travel with that
 * call to the provider and are then cleared (one set of attachments belongs to one call). On the
 * provider, during an invocation, {@link #getAttachments()} holds the attachments the consumer sent.
 *
 * <p><b>Response attachments.</b> On the provider, {@link #setResponseAttachment} adds to the answer of
 * the call being served. On the consumer, {@link #getResponseAttachments()} holds what the provider
 * sent with the last answer: after a blocking call returns (or throws), on the calling thread; for a
 * method returning {@code CompletableFuture}, inside the callbacks that run when the future
 * completes (registered before it completed: they run on the callback executor's thread, where the
 * context holds that call's response attachments).
 *
 * <p><b>Deadline.</b> On the provider, during an invocation, {@link #remainingMillis()} is what is left
 * of the caller's timeout; calls made from that thread get at most that much (deadline propagation,
 * unless their reference turns it off). Work handed to another thread keeps the incoming call's
 * context (attachments, caller address, deadline, response attachments) when wrapped with
 * {@link #wrap(Runnable)}, {@link #wrap(Callable)} or {@link #wrap(Executor)}.
 *
 * <p><b>Caller.</b> On the provider, during an invocation, {@link #getCaller()} is the consumer's
 * verified identity, when it proved one.
 *
 * <p>Attachments are string keys and string values (like gRPC metadata): they are encoded by the
 * frame codec, not by the serializer, so they never widen the deserialization allowlist. Their count
 * and size are bounded ({@link AttachmentLimits}).
 *
 * <p>Not thread-safe by design: each thread has its own instance.
 */
public final class RpcContext {
    /** What {@link #remainingMillis()} returns when no deadline applies. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    private static final ThreadLocal<RpcContext> CURRENT = ThreadLocal.withInitial(RpcContext::new);

    static {
        ServerContext.install(new ServerContext.Access() {
            @Override
            public Object enter(Map<String, String> attachments, String remoteAddress, long deadlineNanos,
                    Supplier<Map<String, String>> responseAttachments, CallerIdentity caller) {
                RpcContext ctx = current();
                Object previous = ctx.snapshot();
                // shared with the call until a service changes them (copy on write): nothing allocated per call
                ctx.attachments = attachments;
                ctx.ownsAttachments = false;
                ctx.remoteAddress = remoteAddress;
                ctx.deadlineNanos = deadlineNanos;
                ctx.serverResponse = responseAttachments;
                ctx.caller = caller;
                return previous;
            }

            @Override
            public void restore(Object previous) {
                current().restore((Snapshot) previous);
            }
        });
    }

    private Map<String, String> attachments = Map.of();
    private boolean ownsAttachments; // false: attachments is shared (read-only to this context), copy before writing
    private String remoteAddress;
    private long deadlineNanos; // 0: none
    private Supplier<Map<String, String>> serverResponse; // null outside an invocation
    private CallerIdentity caller; // null: anonymous, or not serving a call
    private Map<String, String> received = Map.of();

    private RpcContext() {
    }

    /** The context of the calling thread, never null. */
    public static RpcContext current() {
        return CURRENT.get();
    }

    /** Adds an attachment to the next call made from this thread; a null value removes the key. */
    public RpcContext setAttachment(String key, String value) {
        checkKey(key);
        if (!ownsAttachments) {
            attachments = new HashMap<>(attachments);
            ownsAttachments = true;
        }
        if (value == null) {
            attachments.remove(key);
        } else {
            attachments.put(key, value);
        }
        return this;
    }

    /** The attachment with this key, or null. */
    public String getAttachment(String key) {
        return attachments.get(key);
    }

    /** A read-only view of the attachments. */
    public Map<String, String> getAttachments() {
        return Collections.unmodifiableMap(attachments);
    }

    /** On the provider, during an invocation: the consumer's "host:port"; otherwise null. */
    public String getRemoteAddress() {
        return remoteAddress;
    }

    /**
     * On the provider, during an invocation: adds an attachment to the answer of the call being
     * served (a null value removes it). Also from threads running work wrapped with {@link #wrap}
     * before the call's result completes.
     *
     * @throws IllegalStateException when this thread is not serving a call
     */
    public RpcContext setResponseAttachment(String key, String value) {
        checkKey(key);
        if (serverResponse == null) {
            throw new IllegalStateException("setResponseAttachment(\"" + key + "\") outside an invocation: only a"
                    + " provider serving a call (or work wrapped with RpcContext.wrap there) can answer with attachments");
        }
        if (value == null) {
            serverResponse.get().remove(key);
        } else {
            serverResponse.get().put(key, value);
        }
        return this;
    }

    /**
     * On the provider, during an invocation: who is calling, as verified for the caller's connection
     * (its client certificate with mutual TLS, its token with an authenticator); null for an
     * anonymous caller, and on the consumer.
     */
    public CallerIdentity getCaller() {
        return caller;
    }

    /**
     * On the consumer: the attachments the provider sent with the last answer completed on this
     * thread (see the class comment), read-only; empty when it sent none.
     */
    public Map<String, String> getResponseAttachments() {
        return received;
    }

    /** One attachment of the last answer (see {@link #getResponseAttachments()}), or null. */
    public String getResponseAttachment(String key) {
        return received.get(key);
    }

    /**
     * On the provider, during an invocation: milliseconds left of the caller's timeout (0 or less once
     * it passed); {@link #NO_DEADLINE} when no deadline applies (not serving a call, or the caller sent none).
     */
    public long remainingMillis() {
        long d = deadlineNanos;
        return d == 0 ? NO_DEADLINE : Math.floorDiv(d - System.nanoTime(), 1_000_000L);
    }

    /**
     * Takes the attachments for an outgoing call and leaves this context empty. Framework use.
     */
    public Map<String, String> takeAttachments() {
        if (attachments.isEmpty()) {
            return Map.of();
        }
        Map<String, String> taken = ownsAttachments ? attachments : new HashMap<>(attachments);
        attachments = Map.of();
        ownsAttachments = false;
        return taken;
    }

    /** Framework use: the incoming call's deadline on {@link System#nanoTime()}'s clock, 0 when none. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /** Framework use: records what the provider sent with an answer (see {@link #getResponseAttachments()}). */
    public void received(Map<String, String> responseAttachments) {
        this.received = responseAttachments.isEmpty() ? Map.of() : Collections.unmodifiableMap(responseAttachments);
    }

    /**
     * {@code task} running with this thread's incoming-call context (attachments, caller address,
     * deadline, response attachments) on whatever thread runs it; the runner's own context is put
     * back afterwards.
     */
    public static Runnable wrap(Runnable task) {
        Objects.requireNonNull(task, "task");
        Snapshot captured = current().snapshot();
        return () -> {
            RpcContext ctx = current();
            Snapshot previous = ctx.snapshot();
            ctx.restore(captured.copy());
            try {
                task.run();
            } finally {
                ctx.restore(previous);
            }
        };
    }

    /** As {@link #wrap(Runnable)}, for a task with a result. */
    public static <V> Callable<V> wrap(Callable<V> task) {
        Objects.requireNonNull(task, "task");
        Snapshot captured = current().snapshot();
        return () -> {
            RpcContext ctx = current();
            Snapshot previous = ctx.snapshot();
            ctx.restore(captured.copy());
            try {
                return task.call();
            } finally {
                ctx.restore(previous);
            }
        };
    }

    /**
     * An executor that runs each task with the context of the thread that submits it (captured at
     * {@code execute}, not here), for {@code CompletableFuture.*Async(..., RpcContext.wrap(executor))}.
     */
    public static Executor wrap(Executor executor) {
        Objects.requireNonNull(executor, "executor");
        return task -> executor.execute(wrap(task));
    }

    private Snapshot snapshot() {
        if (attachments.isEmpty() && remoteAddress == null && deadlineNanos == 0 && serverResponse == null && caller == null) {
            return Snapshot.EMPTY; // the usual state outside a call: nothing to allocate
        }
        return new Snapshot(attachments, ownsAttachments, remoteAddress, deadlineNanos, serverResponse, caller);
    }

    private void restore(Snapshot s) {
        attachments = s.attachments();
        ownsAttachments = s.ownsAttachments();
        remoteAddress = s.remoteAddress();
        deadlineNanos = s.deadlineNanos();
        serverResponse = s.serverResponse();
        caller = s.caller();
    }

    private static void checkKey(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("attachment key must be a non-empty string");
        }
    }

    /** The incoming-call part of a context: what {@link #wrap} carries and what an invocation replaces. */
    private record Snapshot(Map<String, String> attachments, boolean ownsAttachments, String remoteAddress,
            long deadlineNanos, Supplier<Map<String, String>> serverResponse, CallerIdentity caller) {
        static final Snapshot EMPTY = new Snapshot(Map.of(), false, null, 0L, null, null);

        /** The same with its own attachment map, for a thread that may change it. */
        Snapshot copy() {
            return new Snapshot(new HashMap<>(attachments), true, remoteAddress, deadlineNanos, serverResponse, caller);
        }
    }
}
