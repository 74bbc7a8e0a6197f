package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.AttachmentLimits;
import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.api.generic.ServiceMetadata;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.core.internal.generic.GenericMethod;
import io.kestrel.rpc.core.internal.generic.MetadataMethod;
import io.kestrel.rpc.core.internal.generic.PlainTree;
import io.kestrel.rpc.core.internal.generic.TreeReader;
import io.kestrel.rpc.transport.ClientTransport;
import io.kestrel.rpc.transport.spi.AttachedValue;
import io.kestrel.rpc.transport.spi.MethodRef;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The proxy behind a generic reference ({@link GenericService}). Every {@code $invoke} travels as the
 * service's reserved {@code $invoke(String, String[], Object[])} method: one method reference per connection,
 * with the method's name, the parameter type names and the argument trees as its arguments, encoded with the
 * serialization agreed with the provider. The reference's interceptors run around it; to them the call's
 * {@code methodName()} is the method called, {@code method()} is {@code GenericService.$invoke} and the
 * arguments are those three. {@code $metadata} answers are cached per provider address.
 */
final class GenericReferenceHandler implements InvocationHandler {
    private static final ClientInterceptor[] NONE = new ClientInterceptor[0];

    private final ReferenceConfig<?> config;
    private final ClusterInvoker cluster;
    private final ClientTransport transport;
    private final Executor callbackExecutor;
    private final ClientInterceptor[] interceptors;
    private final boolean propagateDeadline;
    private final MethodInfo invoke;
    private final MethodInfo invokeAsync;
    private final MethodInfo metadata;
    private final TreeReader metadataReader;
    private final Map<String, ServiceMetadata> metadataByProvider = new ConcurrentHashMap<>();

    GenericReferenceHandler(ReferenceConfig<?> config, ClusterInvoker cluster, ClientTransport transport,
            Executor callbackExecutor, List<ClientInterceptor> interceptors) {
        this.config = config;
        this.cluster = cluster;
        this.transport = transport;
        this.callbackExecutor = callbackExecutor;
        this.interceptors = interceptors.toArray(NONE);
        this.propagateDeadline = config.propagateDeadline();
        ServiceKey key = config.key();
        int timeout = (int) Math.min(Integer.MAX_VALUE,
                config.timeout().orElse(ReferenceConfig.DEFAULT_TIMEOUT).toMillis());
        MethodRef ref = GenericMethod.ref(key); // one instance: both forms share the connection's method number
        try {
            this.invoke = new MethodInfo(key, GenericService.class.getMethod("$invoke", String.class, String[].class,
                    Object[].class), ref, false, Object.class, timeout);
            this.invokeAsync = new MethodInfo(key, GenericService.class.getMethod("$invokeAsync", String.class,
                    String[].class, Object[].class), ref, true, Object.class, timeout);
            this.metadata = new MethodInfo(key, GenericService.class.getMethod("$metadata"), MetadataMethod.ref(key),
                    false, Object.class, timeout);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        this.metadataReader = new TreeReader(ClassAllowlist.withDefaults().trustTypesOf(GenericService.class));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "$invoke":
                return await(start(invoke, args), "$invoke " + args[0]);
            case "$invokeAsync":
                return async(start(invokeAsync, args));
            case "$metadata":
                return metadata();
            case "toString":
                return "Kestrel RPC generic proxy of " + config;
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == args[0];
            default:
                throw new UnsupportedOperationException("method " + method + " is not remote");
        }
    }

    private CompletableFuture<Object> start(MethodInfo info, Object[] args) {
        String name = (String) args[0];
        String[] types = (String[]) args[1];
        Object[] trees = args[2] == null ? new Object[0] : ((Object[]) args[2]).clone();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("$invoke needs a method name (" + config.key() + ")");
        }
        if (types != null && types.length != trees.length) {
            throw new IllegalArgumentException("$invoke of " + config.key() + "#" + name + " has " + types.length
                    + " parameter types and " + trees.length + " arguments; pass one argument per parameter");
        }
        for (int i = 0; i < trees.length; i++) {
            PlainTree.checked(trees[i], "argument " + i + " of " + config.key() + "#" + name);
        }
        return call(info, new Object[] {name, types == null ? null : types.clone(), trees}, name).start();
    }

    private ClientCall call(MethodInfo info, Object[] callArgs, String name) {
        RpcContext context = RpcContext.current();
        Map<String, String> attachments = context.takeAttachments();
        if (!attachments.isEmpty()) {
            String tooMany = AttachmentLimits.violation(attachments, "the request of " + config.key() + "#" + name);
            if (tooMany != null) {
                throw new IllegalArgumentException(tooMany);
            }
        }
        if (!info.async && transport.inEventLoop()) {
            throw new IllegalStateException("Blocking call " + config.key() + "#" + name + " made on a Netty"
                    + " event-loop thread; this would deadlock. Use $invokeAsync, or call from another thread");
        }
        long deadlineNanos = propagateDeadline ? context.deadlineNanos() : 0L;
        return new ClientCall(info, cluster, info == metadata ? NONE : interceptors, callArgs, attachments,
                deadlineNanos).named(name);
    }

    /** The caller's future of {@code $invokeAsync}: completes on the callback executor (RpcContext untouched). */
    private CompletableFuture<Object> async(CompletableFuture<Object> future) {
        CallerFuture result = new CallerFuture(callbackExecutor, null, false);
        future.whenComplete(result);
        return result;
    }

    private Object await(CompletableFuture<Object> future, String what) {
        try {
            return AttachedValue.valueOf(future.get(cluster.longestTimeoutMillis() + 1000L, TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            Throwable t = ReferenceHandler.withCallSite(e.getCause());
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error err) {
                throw err;
            }
            // GenericService declares no checked exceptions: the service's arrives wrapped, with its class and message
            RemoteInvocationException wrapped = new RemoteInvocationException(t.getClass().getName(), t.getMessage(),
                    "thrown by " + config.key() + " " + what);
            wrapped.initCause(t);
            throw wrapped;
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new RpcTimeoutException(config.key() + " " + what + " got no answer within "
                    + cluster.longestTimeoutMillis() + " ms (the call's timer did not fire either)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException(config.key() + " " + what + " was interrupted while waiting for its result", e);
        }
    }

    /** The metadata of a provider this reference knows, asked once per provider address. */
    private ServiceMetadata metadata() {
        for (Endpoint e : cluster.directory().endpoints()) {
            ServiceMetadata cached = metadataByProvider.get(e.provider().address());
            if (cached != null) {
                return cached;
            }
        }
        ClientCall call = call(metadata, new Object[0], "$metadata");
        Object tree = await(call.start(), "$metadata");
        ServiceMetadata read = (ServiceMetadata) metadataReader.read(tree, ServiceMetadata.class, "metadata");
        String provider = call.peerAddress();
        ServiceMetadata answered = new ServiceMetadata(read.interfaceName(), read.version(), read.group(),
                provider == null ? "" : provider, read.serializations(), read.methods(), read.types());
        if (provider != null) {
            metadataByProvider.put(provider, answered);
        }
        return answered;
    }
}
