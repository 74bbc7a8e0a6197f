package io.kestrel.rpc.core.internal.provider;

import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.InterceptorException;
import io.kestrel.rpc.api.interceptor.ServerCallInfo;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.interceptor.StreamListener;
import io.kestrel.rpc.core.internal.shared.InterceptorChain;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.IncomingCall;
import io.kestrel.rpc.transport.spi.RefusedException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * One provider invocation passing through its service's interceptors, then the method. Created only
 * when the service has interceptors. Its result tells the transport how to answer: a failure an
 * interceptor caused before the service ran becomes a status ({@link RefusedException}): "server
 * busy" for a {@link ServerBusyException} (failover may retry: it did not run), "server error" for
 * an interceptor that threw; anything else is answered as the service's exception.
 */
final class ServerInvocation extends InterceptorChain<ServerInterceptor> implements ServerCallInfo {
    private final ServiceKey service;
    private final Method method;
    private final Object target;
    private final Object[] arguments;
    private final IncomingCall call;
    private final Map<String, String> requestAttachments;
    private volatile boolean serviceRan;

    ServerInvocation(ServiceKey service, Method method, Object target, ServerInterceptor[] interceptors,
            Object[] arguments, IncomingCall call) {
        super(interceptors);
        this.service = service;
        this.method = method;
        this.target = target;
        this.arguments = arguments;
        this.call = call;
        this.requestAttachments = Collections.unmodifiableMap(call.attachments());
    }

    /** Runs the chain; the future completes with the value or what the transport should answer instead. */
    CompletableFuture<Object> run() {
        CompletableFuture<Object> result = proceedFrom(0);
        if (result.isDone() && !result.isCompletedExceptionally()) {
            return result; // the usual blocking method: answered as it is, without two more futures per call
        }
        return result.handle((value, error) -> error == null ? CompletableFuture.completedFuture(value)
                : CompletableFuture.failedFuture(answerFor(error))).thenCompose(f -> f);
    }

    private Throwable answerFor(Throwable error) {
        Throwable t = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (t instanceof InterceptorException) {
            return new RefusedException(Status.SERVER_ERROR, t.getMessage(), t);
        }
        if (t instanceof ServerBusyException && !serviceRan) {
            return new RefusedException(Status.SERVER_BUSY, t.getMessage(), t);
        }
        return t;
    }

    @Override
    protected CompletableFuture<Object> intercept(ServerInterceptor interceptor, int index) {
        return interceptor.intercept(new Step(index));
    }

    @Override
    protected String nameOf(ServerInterceptor interceptor) {
        return interceptor.name();
    }

    @Override
    protected String side() {
        return "server";
    }

    /** Runs the service's method. */
    @Override
    @SuppressWarnings("unchecked")
    protected CompletableFuture<Object> proceedPastInterceptors() {
        serviceRan = true;
        Object result;
        try {
            result = method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            return CompletableFuture.failedFuture(e.getCause());
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(t);
        }
        if (result instanceof CompletionStage<?> stage) {
            return (CompletableFuture<Object>) stage.toCompletableFuture();
        }
        return CompletableFuture.completedFuture(result);
    }

    /** The chain from one interceptor on. */
    private final class Step implements ServerInterceptor.Chain {
        private final int index;

        Step(int index) {
            this.index = index;
        }

        @Override
        public ServerCallInfo call() {
            return ServerInvocation.this;
        }

        @Override
        public CompletableFuture<Object> proceed() {
            return proceedFrom(index + 1);
        }
    }

    @Override
    public ServiceKey service() {
        return service;
    }

    @Override
    public Method method() {
        return method;
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
        return call.responseAttachments();
    }

    @Override
    public boolean isStream() {
        return call.responseStream() != null;
    }

    @Override
    public void addStreamListener(StreamListener listener) {
        call.addStreamListener(listener);
    }

    @Override
    public String serialization() {
        return call.serialization();
    }

    @Override
    public String peerAddress() {
        return call.remoteAddress();
    }

    @Override
    public long timeoutMillis() {
        return call.timeoutMillis() > 0 ? call.timeoutMillis() : NO_DEADLINE;
    }

    @Override
    public long remainingMillis() {
        long d = call.deadlineNanos();
        return d == 0 ? NO_DEADLINE : Math.floorDiv(d - System.nanoTime(), 1_000_000L);
    }

    @Override
    public int requestBytes() {
        return call.requestBytes();
    }

    @Override
    public String toString() {
        return "ServerInvocation{" + displayName() + " from " + call.remoteAddress() + "}";
    }
}
