package io.kestrel.rpc.spring.internal;

import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ConsoleConfig;
import io.kestrel.rpc.api.config.Dispatch;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ResilienceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.config.TlsConfig;
import java.nio.file.Path;
import java.time.Duration;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.cluster.loadbalance.LoadBalances;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Builds the typed config objects of rpc-api from a {@link ConfigSource}. The attribute names here are
 * the XML attribute names of the {@code http://kestrel.io/schema/rpc} namespace; the same names follow
 * the {@code rpc.<element>.} prefix in the Spring {@code Environment}. Names of serializations, load
 * balancers and cluster modes are checked here, so a typo fails at startup with the attribute named.
 */
public final class ConfigBinder {
    /** Attributes of {@code <rpc:protocol>} (and properties {@code rpc.protocol.*}). */
    public static final List<String> PROTOCOL_ATTRIBUTES = List.of("name", "host", "advertised-host", "port",
            "serialization", "optimizer", "threads", "queues", "iothreads", "payload", "allowed-packages",
            "compatible", "heartbeat", "shutdown-timeout", "authenticator", "tls-cert", "tls-key", "tls-trust",
            "tls-client-auth", "tls-protocols", "tls-ciphers", "tls-handshake-timeout", "tls-reload", "tls-engine");
    /** The hostile-load limits of {@code <rpc:protocol>} (and properties {@code rpc.protocol.*}). */
    public static final List<String> PROTOCOL_LIMITS = List.of("max-connections", "max-connections-per-host",
            "calls-per-connection", "memory-budget", "frame-timeout", "write-stall-timeout", "write-buffer",
            "disclose-services");
    /** Attributes of {@code <rpc:registry>} (and properties {@code rpc.registry.*}). */
    public static final List<String> REGISTRY_ATTRIBUTES = List.of("address", "root", "session-timeout",
            "connection-timeout", "dubbo-root", "empty-protection", "unregister-timeout");
    /** Attributes of {@code <rpc:reference>} that may have defaults in {@code rpc.reference.*}. */
    public static final List<String> REFERENCE_DEFAULTS = List.of("protocol", "timeout", "retries", "loadbalance", "cluster",
            "check", "connect-timeout", "actives", "propagate-deadline", "outlier-failures", "outlier-ejection",
            "outlier-max-ejection", "outlier-max-ejected-percent", "retry-budget-percent", "retry-budget-min-per-second",
            "token", "tls-cert", "tls-key", "tls-trust",
            "tls-protocols", "tls-ciphers", "tls-handshake-timeout", "tls-reload", "tls-verify-hostname", "tls-engine");
    /** Attributes of {@code <rpc:console>} (and properties {@code rpc.console.*}): the web console (io.kestrel:rpc-console). */
    public static final List<String> CONSOLE_ATTRIBUTES = List.of("enabled", "host", "port", "token", "allow-invoke",
            "allow-mutations", "max-request-bytes", "window", "max-connections", "max-connections-per-host",
            "request-timeout");
    /** TLS attributes of {@code <rpc:protocol>} and {@code <rpc:reference>}; any of them set turns TLS on. */
    static final List<String> TLS_ATTRIBUTES = List.of("tls-cert", "tls-key", "tls-trust", "tls-client-auth",
            "tls-protocols", "tls-ciphers", "tls-handshake-timeout", "tls-reload", "tls-verify-hostname", "tls-engine");
    /** The native protocol's name, the default. */
    public static final String PROTOCOL_NAME = ProtocolConfig.KESTREL;

    private ConfigBinder() {
    }

    /** {@code <rpc:application name=".."/>}; {@code fallbackName} when the name is not set. */
    public static ApplicationConfig application(ConfigSource src, String fallbackName) {
        String name = src.get("name");
        return new ApplicationConfig(name != null ? name : fallbackName);
    }

    /** {@code <rpc:registry address=".." root=".." dubbo-root=".." session-timeout=".." connection-timeout=".." empty-protection=".." unregister-timeout=".."/>}. */
    public static RegistryConfig registry(ConfigSource src) {
        RegistryConfig.Builder b = RegistryConfig.builder();
        src.ifSet("address", b::address);
        src.ifSet("root", b::root);
        src.ifSet("dubbo-root", b::dubboRoot);
        src.ifSet("session-timeout", v -> b.sessionTimeout(ConfigSource.duration(v)));
        src.ifSet("connection-timeout", v -> b.connectionTimeout(ConfigSource.duration(v)));
        src.ifSet("empty-protection", v -> b.emptyProtection(ConfigSource.bool(v)));
        src.ifSet("unregister-timeout", v -> b.unregisterTimeout(ConfigSource.duration(v)));
        return b.build();
    }

    /** {@code <rpc:console .../>}; see {@link #CONSOLE_ATTRIBUTES}. Off unless {@code enabled} is true. */
    public static ConsoleConfig console(ConfigSource src) {
        ConsoleConfig.Builder b = ConsoleConfig.builder();
        src.ifSet("enabled", v -> b.enabled(ConfigSource.bool(v)));
        src.ifSet("host", b::host);
        src.ifSet("port", v -> b.port(ConfigSource.integer(v)));
        src.ifSet("token", b::token);
        src.ifSet("allow-invoke", v -> b.allowInvoke(ConfigSource.bool(v)));
        src.ifSet("allow-mutations", v -> b.allowMutations(ConfigSource.bool(v)));
        src.ifSet("max-request-bytes", v -> b.maxRequestBytes(ConfigSource.integer(v)));
        src.ifSet("window", v -> b.window(ConfigSource.duration(v)));
        src.ifSet("max-connections", v -> b.maxConnections(ConfigSource.integer(v)));
        src.ifSet("max-connections-per-host", v -> b.maxConnectionsPerHost(ConfigSource.integer(v)));
        src.ifSet("request-timeout", v -> b.requestTimeout(ConfigSource.duration(v)));
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(src.where() + ": " + e.getMessage(), e);
        }
    }

    /** {@code <rpc:protocol .../>}; see {@link #PROTOCOL_ATTRIBUTES}. */
    public static ProtocolConfig protocol(ConfigSource src, ClassLoader loader) {
        ProtocolConfig.Builder b = ProtocolConfig.builder();
        src.ifSet("name", b::name);
        src.ifSet("host", b::host);
        src.ifSet("advertised-host", b::advertisedHost);
        src.ifSet("port", v -> b.port(ConfigSource.integer(v)));
        src.ifSet("serialization", v -> b.serialization(checkSerialization(v)));
        src.ifSet("optimizer", v -> b.optimizer(ConfigSource.type(v, SerializationOptimizer.class, loader)));
        src.ifSet("threads", v -> {
            if (v.equalsIgnoreCase("virtual")) {
                b.virtualThreads(true); // the number stays the fallback on JDKs before 21
            } else {
                b.threads(ConfigSource.integer(v));
            }
        });
        src.ifSet("queues", v -> b.queueCapacity(ConfigSource.integer(v)));
        src.ifSet("iothreads", v -> b.ioThreads(ConfigSource.integer(v)));
        src.ifSet("payload", v -> b.payloadBytes(ConfigSource.integer(v)));
        src.ifSet("allowed-packages", v -> split(v).forEach(b::allowPackage));
        src.ifSet("compatible", v -> b.compatible(ConfigSource.bool(v)));
        src.ifSet("heartbeat", v -> b.heartbeatInterval(ConfigSource.duration(v)));
        src.ifSet("shutdown-timeout", v -> b.shutdownTimeout(ConfigSource.duration(v)));
        ServerLimits.Builder limits = ServerLimits.builder();
        src.ifSet("max-connections", v -> limits.maxConnections(ConfigSource.integer(v)));
        src.ifSet("max-connections-per-host", v -> limits.maxConnectionsPerHost(ConfigSource.integer(v)));
        src.ifSet("calls-per-connection", v -> limits.callsPerConnection(ConfigSource.integer(v)));
        src.ifSet("memory-budget", v -> limits.memoryBudgetBytes(Long.parseLong(v.trim())));
        src.ifSet("frame-timeout", v -> limits.frameTimeout(ConfigSource.duration(v)));
        src.ifSet("write-stall-timeout", v -> limits.writeStallTimeout(ConfigSource.duration(v)));
        src.ifSet("write-buffer", v -> limits.writeBufferBytes(ConfigSource.integer(v)));
        src.ifSet("disclose-services", v -> limits.discloseServices(ConfigSource.bool(v)));
        b.limits(limits.build());
        src.ifSet("authenticator", b::authenticator);
        b.tls(tls(src, null, true));
        return b.build();
    }

    /**
     * {@code <rpc:service interface=".." ref=".." version group timeout weight serialization executes dispatch interceptors generic/>}; the
     * interface and the implementation are resolved by the caller.
     */
    public static <T> ServiceConfig<T> service(ConfigSource src, Class<T> iface, Object ref) {
        return service(src, null, iface, ref);
    }

    /**
     * As {@link #service(ConfigSource, Class, Object)}, with {@code executes}, {@code dispatch} and {@code generic} taken from {@code defaults}
     * (e.g. {@code rpc.service.*}) when the service does not set it.
     */
    public static <T> ServiceConfig<T> service(ConfigSource src, ConfigSource defaults, Class<T> iface, Object ref) {
        if (!iface.isInstance(ref)) {
            throw src.error("ref", ref.getClass().getName(), "the bean does not implement " + iface.getName(), null);
        }
        ServiceConfig.Builder<T> b;
        try {
            b = ServiceConfig.builder(iface, iface.cast(ref));
        } catch (IllegalArgumentException e) {
            throw src.error("interface", iface.getName(), e.getMessage(), e);
        }
        src.ifSet("version", b::version);
        src.ifSet("group", b::group);
        src.ifSet("timeout", v -> b.timeout(ConfigSource.duration(v)));
        src.ifSet("weight", v -> b.weight(ConfigSource.integer(v)));
        src.ifSet("warmup", v -> b.warmup(ConfigSource.duration(v)));
        src.ifSet("serialization", v -> split(v).forEach(n -> b.serialization(checkSerialization(n))));
        if (defaults != null) {
            defaults.ifSet("executes", v -> b.executes(ConfigSource.integer(v)));
            defaults.ifSet("dispatch", v -> b.dispatch(Dispatch.parse(v)));
            defaults.ifSet("generic", v -> b.generic(ConfigSource.bool(v)));
        }
        src.ifSet("executes", v -> b.executes(ConfigSource.integer(v)));
        src.ifSet("dispatch", v -> b.dispatch(Dispatch.parse(v)));
        src.ifSet("interceptors", v -> instances(v, ServerInterceptor.class, loaderOf(iface)).forEach(b::interceptor));
        src.ifSet("allowed-principals", v -> split(v).forEach(b::allowPrincipal));
        src.ifSet("allowed-roles", v -> split(v).forEach(b::allowRole));
        src.ifSet("generic", v -> b.generic(ConfigSource.bool(v)));
        return b.build();
    }

    /**
     * {@code <rpc:reference .../>}: attributes from {@code src}, then for the unset ones among
     * {@link #REFERENCE_DEFAULTS} the values in {@code defaults} (e.g. {@code rpc.reference.*}).
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
        src.ifSet("serialization", v -> b.serialization(checkSerialization(v)));
        src.ifSet("optimizer", v -> b.optimizer(ConfigSource.type(v, SerializationOptimizer.class, loader)));
        src.ifSet("url", b::url);
        src.ifSet("payload", v -> b.payloadBytes(ConfigSource.integer(v)));
        src.ifSet("compatible", v -> b.compatible(ConfigSource.bool(v)));
        src.ifSet("idempotent", v -> b.idempotent(ConfigSource.bool(v)));
        src.ifSet("interceptors", v -> instances(v, ClientInterceptor.class, loader).forEach(b::interceptor));
        b.tls(tls(src, defaults, false));
        src.ifSet("async", v -> {
            if (ConfigSource.bool(v) && !hasAsyncMethod(iface)) {
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

    /**
     * One new instance of each class in a comma-separated list (public no-arg constructor): the
     * {@code interceptors} of one service or reference. Interceptors that are Spring beans apply to the
     * whole runtime instead (see {@code RpcRuntimeFactoryBean}).
     */
    static <T> List<T> instances(String classNames, Class<T> type, ClassLoader loader) {
        return split(classNames).stream().<T>map(name -> {
            Class<? extends T> c = ConfigSource.type(name, type, loader);
            try {
                return c.getConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                throw new IllegalArgumentException("cannot create " + c.getName() + " with a public no-arg constructor ("
                        + e + "); give it one, or make it a bean (bean interceptors apply to every service and"
                        + " reference)", e);
            }
        }).toList();
    }

    private static ClassLoader loaderOf(Class<?> iface) {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        return tccl != null ? tccl : iface.getClassLoader();
    }

    /**
     * The {@code tls-*} attributes as a {@link TlsConfig}, or null when none is set (plaintext). Each
     * attribute comes from {@code src}, else from {@code defaults} (may be null). File paths are only
     * parsed here; the files are read and checked when the protocol starts or the reference is created.
     */
    static TlsConfig tls(ConfigSource src, ConfigSource defaults, boolean provider) {
        java.util.function.Function<String, ConfigSource> from = name -> src.has(name) || defaults == null
                || !defaults.has(name) ? src : defaults;
        if (TLS_ATTRIBUTES.stream().noneMatch(n -> from.apply(n).has(n))) {
            return null;
        }
        if (!provider && src.has("tls-client-auth")) {
            throw src.error("tls-client-auth", src.get("tls-client-auth"), "is a provider setting; set it on"
                    + " <rpc:protocol>", null);
        }
        TlsConfig.Builder b = TlsConfig.builder();
        from.apply("tls-cert").ifSet("tls-cert", v -> b.certificateChain(Path.of(v)));
        from.apply("tls-key").ifSet("tls-key", v -> b.privateKey(Path.of(v)));
        from.apply("tls-trust").ifSet("tls-trust", v -> b.trustRoots(Path.of(v)));
        from.apply("tls-client-auth").ifSet("tls-client-auth", v -> b.clientAuth(choice(v,
                TlsConfig.ClientAuth.class)));
        from.apply("tls-protocols").ifSet("tls-protocols", v -> b.protocols(split(v)));
        from.apply("tls-ciphers").ifSet("tls-ciphers", v -> b.ciphers(split(v)));
        from.apply("tls-handshake-timeout").ifSet("tls-handshake-timeout",
                v -> b.handshakeTimeout(ConfigSource.duration(v)));
        from.apply("tls-reload").ifSet("tls-reload", v -> b.reloadInterval(v.equals("0") ? Duration.ZERO
                : ConfigSource.duration(v)));
        from.apply("tls-verify-hostname").ifSet("tls-verify-hostname", v -> b.verifyHostname(ConfigSource.bool(v)));
        from.apply("tls-engine").ifSet("tls-engine", v -> b.engine(choice(v, TlsConfig.Engine.class)));
        ConfigSource keySource = from.apply("tls-cert");
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw keySource.error("tls-cert", keySource.get("tls-cert"), e.getMessage(), e);
        }
    }

    /** An enum constant by its name, case-insensitively; the message lists the choices. */
    private static <E extends Enum<E>> E choice(String value, Class<E> type) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(value.trim())) {
                return e;
            }
        }
        throw new IllegalArgumentException("must be one of " + java.util.Arrays.stream(type.getEnumConstants())
                .map(e -> e.name().toLowerCase(java.util.Locale.ROOT)).toList());
    }

    /** Whether the interface has a method whose calls the proxy makes asynchronously. */
    public static boolean hasAsyncMethod(Class<?> iface) {
        for (java.lang.reflect.Method m : iface.getMethods()) {
            Class<?> r = m.getReturnType();
            if (r == CompletableFuture.class || r == CompletionStage.class) {
                return true;
            }
        }
        return false;
    }

    /** Fails with the installed names when {@code name} is not an installed serialization. */
    private static String checkSerialization(String name) {
        Serializations.installed().byName(name);
        return name;
    }

    private static List<String> split(String list) {
        return java.util.Arrays.stream(list.split("[,\\s]+")).filter(s -> !s.isBlank()).toList();
    }
}
