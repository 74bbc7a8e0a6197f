package io.kestrel.rpc.spring.internal;

import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.console.ConsoleConfig;
import io.kestrel.rpc.api.config.Dispatch;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.Serializations;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Builds the typed config objects of rpc-api from a {@link ConfigSource}. The attribute names here are
 * the XML attribute names of the {@code http://kestrel.io/schema/rpc} namespace; the same names follow
 * the {@code rpc.<element>.} prefix in the Spring {@code Environment}; {@link Settings} declares them all
 * (references are bound by {@link ReferenceBinding}, TLS by {@link TlsBinding}). Names of serializations
 * are checked here, so a typo fails at startup with the attribute named.
 */
public final class ConfigBinder {
    /**
     * Attributes of {@code <rpc:console>} (and properties {@code rpc.console.*}): the web console (io.kestrel:rpc-console);
     * the {@code console} rows of {@link Settings}.
     */
    public static final List<String> CONSOLE_ATTRIBUTES = Settings.names("console", Settings.Where.XML);
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

    /**
     * {@code <rpc:console .../>}; see {@link #CONSOLE_ATTRIBUTES}. Off unless {@code enabled} is true. Call only with
     * {@code io.kestrel:rpc-console} on the class path (an optional dependency).
     */
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

    /** {@code <rpc:protocol .../>}: the {@code protocol} settings of {@link Settings}. */
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
        src.ifSet("stream-idle-timeout", v -> limits.streamIdleTimeout(ConfigSource.durationOrOff(v)));
        b.limits(limits.build());
        src.ifSet("authenticator", b::authenticator);
        b.tls(TlsBinding.tls(src, null, true));
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
    static String checkSerialization(String name) {
        Serializations.installed().byName(name);
        return name;
    }

    static List<String> split(String list) {
        return java.util.Arrays.stream(list.split("[,\\s]+")).filter(s -> !s.isBlank()).toList();
    }
}
