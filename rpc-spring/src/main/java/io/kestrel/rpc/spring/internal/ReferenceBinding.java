package io.kestrel.rpc.spring.internal;

import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ResilienceConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.core.cluster.loadbalance.LoadBalances;
import java.util.List;

/**
 * Builds {@link ReferenceConfig}s from a {@link ConfigSource} ({@code <rpc:reference>}, {@code @RpcReference}) over
 * the defaults of {@code rpc.reference.*}; the names are those of {@link Settings}. Load balancer and cluster names
 * are checked here, so a typo fails at startup with the attribute named.
 */
public final class ReferenceBinding {
    private ReferenceBinding() {
    }

    /**
     * {@code <rpc:reference .../>}: attributes from {@code src}, then for the unset ones among
     * the {@code env} settings of {@code reference} in {@link Settings} the values in {@code defaults} (e.g. {@code rpc.reference.*}).
     */
    public static <T> ReferenceConfig<T> reference(ConfigSource src, ConfigSource defaults, Class<T> iface,
            ClassLoader loader) {
        ReferenceConfig.Builder<T> b;
        try {
            b = ReferenceConfig.builder(iface);
        } catch (IllegalArgumentException e) {
            throw src.error("interface", iface.getName(), e.getMessage(), e);
        }
        return reference(src, defaults, b, iface, loader);
    }

    /**
     * {@code <rpc:reference interface=".." generic="true"/>}: a {@code GenericService} proxy of the service named
     * {@code interfaceName}, whose class need not be on the class path; the other attributes as for
     * {@link #reference(ConfigSource, ConfigSource, Class, ClassLoader)}.
     *
     * @param proxyType {@code GenericService.class}, typed as the bean's proxy type
     */
    @SuppressWarnings("unchecked")
    public static <T> ReferenceConfig<T> genericReference(ConfigSource src, ConfigSource defaults, String interfaceName,
            Class<T> proxyType, ClassLoader loader) {
        ReferenceConfig.Builder<T> b;
        try {
            b = (ReferenceConfig.Builder<T>) ReferenceConfig.generic(interfaceName);
        } catch (IllegalArgumentException e) {
            throw src.error("interface", interfaceName, e.getMessage(), e);
        }
        return reference(src, defaults, b, proxyType, loader);
    }

    private static <T> ReferenceConfig<T> reference(ConfigSource src, ConfigSource defaults, ReferenceConfig.Builder<T> b,
            Class<T> iface, ClassLoader loader) {
        if (defaults != null) {
            applyReferenceDefaults(defaults, b);
        }
        applyReferenceDefaults(src, b);
        if (RESILIENCE_ATTRIBUTES.stream().anyMatch(a -> src.get(a) != null || defaults != null && defaults.get(a) != null)) {
            b.resilience(resilience(defaults, src));
        }
        src.ifSet("version", b::version);
        src.ifSet("group", b::group);
        src.ifSet("serialization", v -> b.serialization(ConfigBinder.checkSerialization(v)));
        src.ifSet("optimizer", v -> b.optimizer(ConfigSource.type(v, SerializationOptimizer.class, loader)));
        src.ifSet("url", b::url);
        src.ifSet("payload", v -> b.payloadBytes(ConfigSource.integer(v)));
        src.ifSet("compatible", v -> b.compatible(ConfigSource.bool(v)));
        src.ifSet("idempotent", v -> b.idempotent(ConfigSource.bool(v)));
        src.ifSet("interceptors", v -> ConfigBinder.instances(v, ClientInterceptor.class, loader).forEach(b::interceptor));
        b.tls(TlsBinding.tls(src, defaults, false));
        src.ifSet("async", v -> {
            if (ConfigSource.bool(v) && !ConfigBinder.hasAsyncMethod(iface)) {
                throw new IllegalArgumentException(iface.getName() + " declares no method returning CompletableFuture"
                        + " or CompletionStage; calls are asynchronous exactly for such methods, so declare one"
                        + " (e.g. CompletableFuture<User> getAsync(long id)) or remove async=\"true\"");
            }
        });
        return b.build();
    }

    private static <T> void applyReferenceDefaults(ConfigSource src, ReferenceConfig.Builder<T> b) {
        src.ifSet("protocol", b::protocol);
        src.ifSet("timeout", v -> b.timeout(ConfigSource.duration(v)));
        src.ifSet("retries", v -> b.retries(ConfigSource.integer(v)));
        src.ifSet("loadbalance", v -> {
            LoadBalances.byName(v);
            b.loadBalance(v);
        });
        src.ifSet("cluster", v -> b.cluster(ClusterMode.byName(v)));
        src.ifSet("check", v -> b.check(ConfigSource.bool(v)));
        src.ifSet("connect-timeout", v -> b.connectTimeout(ConfigSource.duration(v)));
        src.ifSet("actives", v -> b.actives(ConfigSource.integer(v)));
        src.ifSet("propagate-deadline", v -> b.propagateDeadline(ConfigSource.bool(v)));
        src.ifSet("token", b::token);
    }

    /** The outlier-ejection and retry-budget attributes of {@code <rpc:reference>}. */
    static final List<String> RESILIENCE_ATTRIBUTES = List.of("outlier-failures", "outlier-ejection",
            "outlier-max-ejection", "outlier-max-ejected-percent", "retry-budget-percent", "retry-budget-min-per-second");

    /** The resilience attributes {@code defaults} (may be null) and then {@code src} set, over the defaults. */
    private static ResilienceConfig resilience(ConfigSource defaults, ConfigSource src) {
        ResilienceConfig.Builder r = ResilienceConfig.builder();
        if (defaults != null) {
            applyResilience(defaults, r);
        }
        applyResilience(src, r);
        try {
            return r.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(src.where() + ": " + e.getMessage(), e);
        }
    }

    private static void applyResilience(ConfigSource src, ResilienceConfig.Builder r) {
        src.ifSet("outlier-failures", v -> r.outlierFailures(ConfigSource.integer(v)));
        src.ifSet("outlier-ejection", v -> r.outlierEjection(ConfigSource.duration(v)));
        src.ifSet("outlier-max-ejection", v -> r.outlierMaxEjection(ConfigSource.duration(v)));
        src.ifSet("outlier-max-ejected-percent", v -> r.outlierMaxEjectedPercent(ConfigSource.integer(v)));
        src.ifSet("retry-budget-percent", v -> r.retryBudgetPercent(ConfigSource.integer(v)));
        src.ifSet("retry-budget-min-per-second", v -> r.retryBudgetMinPerSecond(ConfigSource.integer(v)));
    }
}
