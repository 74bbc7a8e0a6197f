package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.AttachmentLimits;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.ClientCallInfo;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.StreamListener;
import io.kestrel.rpc.transport.StreamCall;
import io.kestrel.rpc.core.internal.shared.InterceptorChain;
import io.kestrel.rpc.transport.spi.AttachedValue;
import io.kestrel.rpc.transport.ThreadlessWait;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One consumer call passing through its reference's interceptors, then the cluster. Created only
 * when the reference has interceptors; without them the proxy calls the cluster directly.
 */
final class ClientCall extends InterceptorChain<ClientInterceptor>
        implements ClientCallInfo, ClusterInvoker.AttemptListener {
    private static final Object[] NO_ARGS = new Object[0];
    private static final int OPEN = 0;
    private static final int CALLER_DELIVERS = 1;
    private static final int ARRIVAL_DELIVERS = 2;
    private static final AtomicIntegerFieldUpdater<ClientCall> HANDOFF =
            AtomicIntegerFieldUpdater.newUpdater(ClientCall.class, "handoff");

    private final MethodInfo method;
    private final ClusterInvoker cluster;
    private final Object[] arguments;
    private final StreamCall stream; // the stream this call opens; null for an ordinary call
    private final Map<String, String> requestAttachments;
    private final long referenceTimeoutMillis; // NO_DEADLINE when the reference sets none
    private volatile Map<String, String> responseAttachments = Map.of();
    private volatile String peer;
    private volatile String serialization;
    private long deadlineNanos; // 0: none
    private String methodName; // the called method's name when it is not method().getName() (generic calls)
    // Blocking calls: the provider's answer is handed to the chain by the calling thread, not the I/O thread
    private final Thread caller; // null: asynchronous method, the answer goes on where it arrives
    private boolean starting; // the caller thread is running the chain's first pass
    private CompletableFuture<Object> answer; // the cluster's future of that pass; null: none
    private CompletableFuture<Object> delivered; // what the chain's innermost proceed() returned for it
    private volatile int handoff; // OPEN, then CALLER_DELIVERS or ARRIVAL_DELIVERS, whichever claims it first

    ClientCall(MethodInfo method, ClusterInvoker cluster, ClientInterceptor[] interceptors, Object[] arguments,
            Map<String, String> attachments, long deadlineNanos) {
        super(interceptors);
        this.method = method;
        this.cluster = cluster;
        this.arguments = arguments == null ? NO_ARGS : arguments;
        this.stream = method.ref.stream() != null
                && this.arguments[method.ref.stream().observerIndex()] instanceof StreamCall s ? s : null;
        this.requestAttachments = new HashMap<>(attachments);
        this.deadlineNanos = deadlineNanos;
        this.referenceTimeoutMillis = cluster.referenceTimeoutMillis() > 0 ? cluster.referenceTimeoutMillis() : NO_DEADLINE;
        this.caller = method.async ? null : Thread.currentThread();
    }

    /** Names the method called when {@link #method()} is the reserved one a generic call travels as. */
    ClientCall named(String name) {
        this.methodName = name;
        return this;
    }

    @Override
    public String methodName() {
        String name = methodName;
        return name != null ? name : method.method.getName();
    }

    /**
     * Runs the chain from its first interceptor. For a blocking method, the provider's answer to the
     * attempt this pass sends is passed up the chain by the caller once it waits for it
     * ({@link #callerDelivers}, then {@link #deliver}), so that every interceptor's completion work
     * (ending spans, recording timers) runs on the calling thread rather than on the one Netty I/O
     * thread that reads the answers of all callers: the shape of grpc-java's blocking calls. Should
     * the caller not be waiting when the answer arrives (an interceptor blocked on its
     * {@code proceed()} future, say), the arriving thread passes it on as for asynchronous methods.
     */
    CompletableFuture<Object> start() {
        starting = true;
        try {
            return proceedFrom(0);
        } finally {
            starting = false;
        }
    }

    /**
     * After {@link #start()}, on the caller's thread: the answer this thread is to wait for and then
     * {@link #deliver}, or null when the chain sent nothing in its first pass or the answer has been
     * passed on already.
     */
    CompletableFuture<Object> callerDelivers() {
        return answer != null && HANDOFF.compareAndSet(this, OPEN, CALLER_DELIVERS) ? answer : null;
    }

    /**
     * Passes the answer up the chain on this thread once it has arrived (at once when it has): the
     * interceptors' completion work runs here. Called once, after {@link #callerDelivers} returned it.
     */
    void deliver() {
        answer.whenComplete(this::pass);
    }

    private void arrived(Object value, Throwable error) {
        if (HANDOFF.compareAndSet(this, OPEN, ARRIVAL_DELIVERS)) {
            pass(value, error);
        }
    }

    private void pass(Object value, Throwable error) {
        if (error != null) {
            delivered.completeExceptionally(error);
        } else {
            delivered.complete(value);
        }
    }

    @Override
    protected CompletableFuture<Object> proceedPastInterceptors() {
        // interceptors may have added attachments: refuse here rather than have the provider drop the connection
        String tooMany = AttachmentLimits.violation(requestAttachments, this::describeRequest);
        if (tooMany != null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException(tooMany));
        }
        boolean callerPass = starting && answer == null && Thread.currentThread() == caller;
        CompletableFuture<Object> sent = cluster.invoke(method, arguments, Map.copyOf(requestAttachments),
                deadlineNanos, this, callerPass ? ThreadlessWait.forThisThread() : null);
        if (callerPass) {
            answer = sent;
            delivered = new CompletableFuture<>();
            CompletableFuture<Object> result = delivered.thenApply(this::received);
            sent.whenComplete(this::arrived);
            return result;
        }
        return sent.thenApply(this::received);
    }

    @Override
    protected CompletableFuture<Object> intercept(ClientInterceptor interceptor, int index) {
        return interceptor.intercept(new Step(index));
    }

    @Override
    protected String nameOf(ClientInterceptor interceptor) {
        return interceptor.name();
    }

    @Override
    protected String side() {
        return "client";
    }

    private String describeRequest() {
        return "the request of " + displayName() + " (with what its interceptors added)";
    }

    private Object received(Object result) {
        Map<String, String> attachments = AttachedValue.attachmentsOf(result);
        if (!attachments.isEmpty()) {
            responseAttachments = Collections.unmodifiableMap(attachments);
        }
        return AttachedValue.valueOf(result);
    }

    @Override
    public void sentTo(String address, String serialization) {
        this.peer = address;
        this.serialization = serialization;
    }

    /** The chain from one interceptor on. */
    private final class Step implements ClientInterceptor.Chain {
        private final int index;

        Step(int index) {
            this.index = index;
        }

        @Override
        public ClientCallInfo call() {
            return ClientCall.this;
        }

        @Override
        public CompletableFuture<Object> proceed() {
            return proceedFrom(index + 1);
        }
    }

    @Override
    public ServiceKey service() {
        return method.service;
    }

    @Override
    public Method method() {
        return method.method;
    }

    @Override
    public Object[] arguments() {
        return arguments;
    }

    @Override
    public Map<String, String> requestAttachments() {
        return requestAttachments;
    }

    @Override
    public Map<String, String> responseAttachments() {
        return responseAttachments;
    }

    @Override
    public boolean isStream() {
        return stream != null;
    }

    @Override
    public void addStreamListener(StreamListener listener) {
        if (stream == null) {
            ClientCallInfo.super.addStreamListener(listener); // refuses
            return;
        }
        stream.addListener(listener);
    }

    @Override
    public String serialization() {
        String s = serialization;
        return s != null ? s : cluster.usualSerializationName();
    }

    @Override
    public String peerAddress() {
        return peer;
    }

    @Override
    public long timeoutMillis() {
        long d = deadlineNanos;
        long remaining = d == 0 ? NO_DEADLINE : Math.max(0, (d - System.nanoTime()) / 1_000_000L);
        return Math.min(referenceTimeoutMillis, remaining);
    }

    @Override
    public void limitTimeout(Duration max) {
        if (max == null || max.isNegative() || max.isZero()) {
            throw new IllegalArgumentException("limitTimeout needs a positive duration, was " + max + " (" + displayName() + ")");
        }
        long limit = System.nanoTime() + Math.min(max.toNanos(), Long.MAX_VALUE / 4);
        deadlineNanos = deadlineNanos == 0 ? limit : Math.min(deadlineNanos, limit);
    }

    @Override
    public boolean isAsync() {
        return method.async;
    }

    @Override
    public String toString() {
        return "ClientCall{" + displayName() + "}";
    }
}
