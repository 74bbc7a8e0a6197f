package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Builds the interceptor chain of each reference and service: the runtime's interceptors
 * (programmatic, then ServiceLoader, then Spring beans), then the reference's or service's own, then
 * the framework's (access log, {@code actives}/{@code executes} limits) when configured; sorted by
 * {@code order()}, stably, so equal orders keep that sequence (the framework's sit at {@link InterceptorOrder}).
 * Nothing configured: an empty chain, and calls skip the chain altogether.
 */
public final class Interceptors {
    private final List<ClientInterceptor> client;
    private final List<ServerInterceptor> server;
    private final boolean accessLog;

    /**
     * @param client the runtime's client interceptors, in registration order
     * @param server the runtime's server interceptors, in registration order
     * @param accessLog whether every reference and service logs one line per call
     */
    public Interceptors(List<ClientInterceptor> client, List<ServerInterceptor> server, boolean accessLog) {
        this.client = List.copyOf(client);
        this.server = List.copyOf(server);
        this.accessLog = accessLog;
    }

    /** The chain of one reference, in order. */
    public List<ClientInterceptor> forReference(ReferenceConfig<?> config) {
        List<ClientInterceptor> chain = new ArrayList<>(client);
        chain.addAll(config.interceptors());
        if (config.actives() > 0) {
            chain.add(new ActivesInterceptor(config.actives()));
        }
        if (accessLog) {
            chain.add(new AccessLogInterceptor.Client());
        }
        chain.sort(Comparator.comparingInt(ClientInterceptor::order));
        return List.copyOf(chain);
    }

    /** The chain of one service, in order. */
    public List<ServerInterceptor> forService(ServiceConfig<?> config) {
        List<ServerInterceptor> chain = new ArrayList<>(server);
        chain.addAll(config.interceptors());
        if (config.executes() > 0) {
            chain.add(new ExecutesInterceptor(config.executes()));
        }
        if (accessLog) {
            chain.add(new AccessLogInterceptor.Server());
        }
        chain.sort(Comparator.comparingInt(ServerInterceptor::order));
        return List.copyOf(chain);
    }

    /**
     * The implementations of {@code type} listed in {@code META-INF/services}, loaded with the
     * framework's class-loader policy (the thread's context loader when it sees {@code type}, else
     * {@code type}'s own).
     *
     * @throws IllegalStateException naming the entry that cannot be loaded or instantiated
     */
    public static <T> List<T> loaded(Class<T> type) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null || !sees(loader, type)) {
            loader = type.getClassLoader();
        }
        List<T> found = new ArrayList<>();
        try {
            for (T t : ServiceLoader.load(type, loader)) {
                found.add(t);
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalStateException("Cannot load an interceptor listed in META-INF/services/" + type.getName()
                    + ": " + e.getMessage() + ". Fix or remove the entry (it needs a public no-arg constructor), or"
                    + " turn off loading with RpcRuntime.builder().loadInterceptors(false)", e);
        }
        return found;
    }

    private static boolean sees(ClassLoader loader, Class<?> type) {
        try {
            return Class.forName(type.getName(), false, loader) == type;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
