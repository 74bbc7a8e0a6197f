package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.RpcRequest;
import io.kestrel.rpc.transport.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses a provider for each call and applies the reference's fault tolerance:
 * <ul>
 *   <li>{@code failover} (default): a call that certainly did not run on the provider is retried on
 *       another provider, up to {@code retries} times. Which failures those are is decided by
 *       {@link Status#retryOf}: not connected / refused / closed before sending, provider busy or
 *       shutting down, service not exported there. Not retried, because the call may have run:
 *       timeouts, a connection lost while the call was in flight; nor exceptions thrown by the
 *       service or bad requests. A reference marked {@code idempotent} opts in to retrying the
 *       may-have-run failures too.</li>
 *   <li>{@code failfast}: the first failure is the call's failure.</li>
 *   <li>{@code failsafe}: failures are logged and the call returns null (for calls whose result does
 *       not matter, such as audit logging).</li>
 * </ul>
 */
public final class ClusterInvoker {
    private static final Logger log = LoggerFactory.getLogger(ClusterInvoker.class);

    private final ReferenceConfig<?> config;
    private final Directory directory;
    private final LoadBalance loadBalance;
    private final Serializer serializer;
    private final int retries;
    private final int referenceTimeoutMillis; // 0: the reference sets none
    private volatile int longestTimeoutMillis;

    public ClusterInvoker(ReferenceConfig<?> config, Directory directory, LoadBalance loadBalance, Serializer serializer) {
        this.config = config;
        this.directory = directory;
        this.loadBalance = loadBalance;
        this.serializer = serializer;
        this.retries = config.cluster() == ClusterMode.FAILOVER ? config.retries() : 0;
        this.referenceTimeoutMillis = config.timeout().map(ClusterInvoker::millis).orElse(0);
        this.longestTimeoutMillis = millis(config.timeout().orElse(ReferenceConfig.DEFAULT_TIMEOUT));
    }

    /**
     * The deadline of a call to {@code provider}: the reference's timeout if set, else the timeout the provider
     * publishes (its service's), else {@link ReferenceConfig#DEFAULT_TIMEOUT}. A direct-mode provider publishes none.
     */
    int timeoutMillis(ProviderInfo provider) {
        return referenceTimeoutMillis > 0 ? referenceTimeoutMillis
                : millis(provider.timeout().orElse(ReferenceConfig.DEFAULT_TIMEOUT));
    }

    /** The request carrying the deadline for this provider: the timer wheel, the wire and the error message use it. */
    private RpcRequest withTimeoutFor(ProviderInfo provider, RpcRequest request) {
        int timeout = timeoutMillis(provider);
        if (timeout > longestTimeoutMillis) {
            longestTimeoutMillis = timeout;
        }
        return timeout == request.timeoutMillis() ? request : new RpcRequest(request.method(), request.serializer(),
                request.arguments(), request.attachments(), timeout, request.returnType());
    }

    /** The longest deadline a call of this reference has had (at least the reference's or the default). */
    public int longestTimeoutMillis() {
        return longestTimeoutMillis;
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }

    public Serializer serializer() {
        return serializer;
    }

    public Directory directory() {
        return directory;
    }

    /** Sends the call; the future completes with the result or the (final) failure. */
    public CompletableFuture<Object> invoke(MethodInfo method, Object[] args, Map<String, String> attachments) {
        RpcRequest request = new RpcRequest(method.ref, serializer, args, attachments, method.timeoutMillis,
                method.resultType);
        Invocation invocation = new Invocation(config.key(), method.method, args, attachments);
        CompletableFuture<Object> result = attempt(request, invocation, new ArrayList<>(), 0, null);
        if (config.cluster() == ClusterMode.FAILSAFE) {
            return result.exceptionally(e -> {
                log.warn("failsafe: {} failed and returns null: {}", method.ref.displayName(), e.toString());
                return null;
            });
        }
        return result;
    }

    private CompletableFuture<Object> attempt(RpcRequest request, Invocation invocation, List<Endpoint> tried, int attempt,
            Throwable previous) {
        Endpoint endpoint;
        try {
            endpoint = select(invocation, tried);
        } catch (NoProviderException e) {
            // after a retriable failure with nobody left to try, the failure itself says most
            return CompletableFuture.failedFuture(previous != null ? previous : e);
        }
        endpoint.active.incrementAndGet();
        // the count drops before anything downstream (the caller included) sees the outcome; as a separate
        // dependent it could run after the caller's next call was balanced, counting a finished call as active
        CompletableFuture<Object> call = new CompletableFuture<>();
        endpoint.connection().invoke(withTimeoutFor(endpoint.provider(), request)).whenComplete((v, e) -> {
            endpoint.active.decrementAndGet();
            if (e != null) {
                call.completeExceptionally(explained(e, endpoint.provider()));
            } else {
                call.complete(v);
            }
        });
        if (attempt >= retries) {
            return call;
        }
        return call.handle((value, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(value);
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            Status.Retry retry = Status.retryOf(cause);
            if (retry != Status.Retry.SAFE && !(config.idempotent() && retry == Status.Retry.IF_IDEMPOTENT)) {
                return CompletableFuture.failedFuture(cause);
            }
            log.debug("{} failed on {} ({}); retrying on another provider ({} of {})",
                    request.method().displayName(), endpoint, cause.getMessage(), attempt + 1, retries);
            tried.add(endpoint);
            return attempt(request, invocation, tried, attempt + 1, cause);
        }).thenCompose(f -> f);
    }

    /**
     * A provider does not tell unknown callers what it exports; the consumer adds what the
     * provider's registry record says, which it may know.
     */
    static Throwable explained(Throwable e, ProviderInfo provider) {
        if (e instanceof ServiceNotFoundException && !provider.methods().isEmpty()) {
            String wanted = e.getMessage().contains("#") ? ProviderDispatcher.methodName(e.getMessage()) : null;
            return new ServiceNotFoundException(e.getMessage() + " (this consumer's registry record of "
                    + provider.address() + " lists the methods " + provider.methods()
                    + io.kestrel.rpc.api.internal.NearestName.suggestion(wanted, provider.methods()) + ")");
        }
        return e;
    }

    private Endpoint select(Invocation invocation, List<Endpoint> tried) {
        List<Endpoint> all = directory.endpoints();
        List<Endpoint> usable = new ArrayList<>(all.size());
        List<Endpoint> disconnected = new ArrayList<>();
        for (Endpoint e : all) {
            if (!e.provider().serializationIds().contains(serializer.id()) || tried.contains(e)) {
                continue;
            }
            (e.connection().isConnected() ? usable : disconnected).add(e);
        }
        if (usable.isEmpty()) {
            usable = disconnected; // let the call fail with the connection's own message
        }
        if (usable.isEmpty()) {
            return throwNoProvider(tried);
        }
        if (usable.size() == 1) {
            return usable.get(0);
        }
        return loadBalance.select(usable, invocation);
    }

    private Endpoint throwNoProvider(List<Endpoint> tried) {
        List<ProviderInfo> seen = directory.seen();
        String seenText = seen.isEmpty() ? "none" : seen.stream()
                .map(p -> p.address() + " (serialization ids " + p.serializationIds() + ")")
                .collect(Collectors.joining(", "));
        throw new NoProviderException("No provider available for " + config.key() + " (interface "
                + config.interfaceClass().getName() + ", version '" + config.version() + "', group '" + config.group()
                + "') from " + directory.source() + "; providers seen: " + seenText + directory.otherVersions() + "; this consumer uses serialization "
                + serializer.name() + " (id " + serializer.id() + ")"
                + (tried.isEmpty() ? "" : "; already tried: " + tried)
                + ". Start a provider, or check the interface, version, group and serialization on both sides");
    }
}
