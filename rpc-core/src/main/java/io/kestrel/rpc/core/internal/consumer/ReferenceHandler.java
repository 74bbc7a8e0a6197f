package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.AttachmentLimits;
import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.RemoteOrigin;
import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.core.internal.shared.RemoteMethods;
import io.kestrel.rpc.transport.ClientTransport;
import io.kestrel.rpc.transport.spi.AttachedValue;
import io.kestrel.rpc.transport.ThreadlessWait;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The proxy behind a reference. Plain methods block the caller until the result arrives (never on
 * an event-loop thread); methods returning {@link CompletableFuture} return at once, and their future
 * completes on the callback executor, never on an event loop.
 */
final class ReferenceHandler implements InvocationHandler {
    private final ReferenceConfig<?> config;
    private final ClusterInvoker cluster;
    private final ClientTransport transport;
    private final Executor callbackExecutor;
    private final Map<Method, MethodInfo> methods = new HashMap<>();
    private final ClientInterceptor[] interceptors; // null when none: the call goes straight to the cluster
    private final boolean propagateDeadline;

    /**
     * @param interceptors this reference's interceptors in chain order (the runtime's and its own,
     *     sorted); empty for none
     */
    public ReferenceHandler(ReferenceConfig<?> config, ClusterInvoker cluster, ClientTransport transport,
            Executor callbackExecutor, List<ClientInterceptor> interceptors) {
        this.config = config;
        this.interceptors = interceptors.isEmpty() ? null : interceptors.toArray(new ClientInterceptor[0]);
        this.propagateDeadline = config.propagateDeadline();
        this.cluster = cluster;
        this.transport = transport;
        this.callbackExecutor = callbackExecutor;
        // without a reference timeout, ClusterInvoker replaces this per call by the provider's (see timeoutMillis)
        int timeout = (int) Math.min(Integer.MAX_VALUE, config.timeout().orElse(ReferenceConfig.DEFAULT_TIMEOUT).toMillis());
        for (Method m : RemoteMethods.of(config.interfaceClass())) {
            methods.put(m, new MethodInfo(config.key(), m, timeout));
        }
    }

    public ClusterInvoker cluster() {
        return cluster;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        MethodInfo info = methods.get(method);
        if (info == null) {
            return invokeLocally(proxy, method, args);
        }
        RpcContext context = RpcContext.current();
        Map<String, String> attachments = context.takeAttachments();
        if (!attachments.isEmpty()) {
            String tooMany = AttachmentLimits.violation(attachments, "the request of " + info.ref.displayName());
            if (tooMany != null) {
                throw new IllegalArgumentException(tooMany);
            }
        }
        // deadline propagation: while this thread serves a call, no attempt gets more than what is left of it
        long deadlineNanos = propagateDeadline ? context.deadlineNanos() : 0L;
        if (info.ref.stream() != null) {
            return StreamCalls.open(info, args, callbackExecutor, stream -> interceptors == null
                    ? cluster.invoke(info, stream, attachments, deadlineNanos, null)
                    : new ClientCall(info, cluster, interceptors, stream, attachments, deadlineNanos).start());
        }
        if (!info.async && transport.inEventLoop()) {
            throw new IllegalStateException("Blocking call " + info.ref.displayName() + " made on a Netty event-loop"
                    + " thread (a consumer callback, or a provider method dispatched direct: @NonBlocking, a"
                    + " CompletableFuture method, or dispatch=\"direct\"); this would deadlock. Use a method returning"
                    + " CompletableFuture, call from another thread, or set dispatch=\"pool\" on the calling service");
        }
        ClientCall call = interceptors == null ? null
                : new ClientCall(info, cluster, interceptors, args, attachments, deadlineNanos);
        if (info.async) {
            if (call == null) {
                // completes on the callback executor, as a CallerFuture does
                return cluster.invokeForCaller(info, args, attachments, deadlineNanos);
            }
            CallerFuture result = new CallerFuture(callbackExecutor, call, true);
            call.start().whenComplete(result); // the interceptors' future: any CompletableFuture
            return result;
        }
        // the answer is decoded on this thread while it waits (ThreadlessWait), not on the I/O thread
        CompletableFuture<Object> future = call == null
                ? cluster.invoke(info, args, attachments, deadlineNanos, null, ThreadlessWait.forThisThread())
                : call.start();
        CompletableFuture<Object> answer = call != null ? call.callerDelivers() : null;
        try {
            // the timer wheel completes the future at the deadline; the extra second only guards against a lost timer
            long waitMillis = cluster.longestTimeoutMillis() + 1000L;
            if (answer != null) {
                try {
                    waitMillis = awaitAnswer(answer, waitMillis);
                } finally {
                    call.deliver(); // here, or (timeout, interrupt) when it comes: interceptors always see the end
                }
            }
            Object v = future.get(waitMillis, TimeUnit.MILLISECONDS);
            context.received(call != null ? call.responseAttachments() : AttachedValue.attachmentsOf(v));
            return AttachedValue.valueOf(v);
        } catch (ExecutionException e) {
            context.received(Map.of());
            throw translate(withCallSite(e.getCause()), method);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new RpcTimeoutException(info.ref.displayName() + " got no answer within " + cluster.longestTimeoutMillis()
                    + " ms (the call's timer did not fire either)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException(info.ref.displayName() + " was interrupted while waiting for its result", e);
        }
    }

    /** Waits for the cluster's answer (without its outcome); returns what is left of {@code millis}. */
    private static long awaitAnswer(CompletableFuture<Object> answer, long millis)
            throws InterruptedException, TimeoutException {
        long start = System.nanoTime();
        try {
            answer.get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
            // the chain sees the failure when it is delivered
        }
        return Math.max(1, millis - (System.nanoTime() - start) / 1_000_000L);
    }

    /**
     * Gives the {@link RemoteOrigin} marker of a provider's exception this thread's frames, so its
     * stack trace shows both sides: the provider's frames, then the consumer's call site.
     */
    static Throwable withCallSite(Throwable t) {
        RemoteOrigin.of(t).ifPresent(origin -> {
            StackTraceElement[] here = new Throwable().getStackTrace();
            origin.setStackTrace(java.util.Arrays.copyOfRange(here, Math.min(2, here.length), here.length));
        });
        return t;
    }

    /** Throws what the caller can catch: unchecked exceptions as they are, checked ones only if declared. */
    private static Throwable translate(Throwable t, Method method) {
        if (t instanceof RuntimeException || t instanceof Error) {
            return t;
        }
        for (Class<?> declared : method.getExceptionTypes()) {
            if (declared.isInstance(t)) {
                return t;
            }
        }
        RemoteInvocationException wrapped = new RemoteInvocationException(t.getClass().getName(), t.getMessage(),
                "not declared by " + method.getName() + "()");
        wrapped.initCause(t);
        return wrapped;
    }

    private Object invokeLocally(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args);
        }
        return switch (method.getName()) {
            case "toString" -> "Kestrel RPC proxy of " + config;
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            default -> throw new UnsupportedOperationException("method " + method + " is not remote");
        };
    }
}
