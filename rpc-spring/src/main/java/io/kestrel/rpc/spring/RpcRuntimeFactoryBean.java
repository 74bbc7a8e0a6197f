package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.Callbacks;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.RuntimeAddOn;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ConfigSource;
import io.kestrel.rpc.spring.internal.EnvironmentKeys;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * The context's one {@link RpcRuntime} (bean {@value KestrelRpcBeans#RUNTIME}), built on first use from
 * the context's {@link ApplicationConfig}, {@link RegistryConfig} and {@link ProtocolConfig} beans. Each
 * of them comes from the context when it has exactly one bean of that type ({@code <rpc:application>},
 * {@code <rpc:registry>}, {@code <rpc:protocol>}, or a {@code @Bean} of the config type), and otherwise
 * from the Spring {@code Environment}:
 *
 * <table>
 *   <caption>Environment properties</caption>
 *   <tr><th>property</th><th>default</th></tr>
 *   <tr><td>{@code rpc.application.name}</td><td>{@code spring.application.name}, else "kestrel-application"</td></tr>
 *   <tr><td>{@code rpc.registry.address}, {@code .root}, {@code .session-timeout}, {@code .connection-timeout},
 *       {@code .empty-protection}, {@code .unregister-timeout}</td>
 *       <td>{@code embedded}: the ZooKeeper shared by the processes of this host (127.0.0.1:2182, hosted by the first)</td></tr>
 *   <tr><td>{@code rpc.protocol.port}, {@code .host}, {@code .advertised-host}, {@code .serialization},
 *       {@code .optimizer}, {@code .threads}, {@code .queues}, {@code .iothreads}, {@code .payload},
 *       {@code .allowed-packages}, {@code .compatible}, {@code .heartbeat}, {@code .shutdown-timeout}</td>
 *       <td>as {@link ProtocolConfig.Builder}: 127.0.0.1:20880, fory</td></tr>
 * </table>
 *
 * <p>Every bean of type {@link ClientInterceptor} or {@link ServerInterceptor} is added to the runtime
 * (all its references or services; {@code <bean class="..."/>}, {@code @Bean} or {@code @Component}),
 * in bean definition order; interceptors for one service or reference are named by class in its
 * {@code interceptors} attribute instead. Every bean of type {@link RuntimeAddOn} is attached the same way.
 * {@code rpc.access-log=true} turns on the access log; {@code rpc.callbacks=direct} completes asynchronous methods'
 * futures where the call ends ({@link Callbacks}). The web console (the optional artifact
 * {@code io.kestrel:rpc-console}) is attached from {@code <rpc:console>}, else {@code rpc.console.*}; it is off by
 * default, and enabling it without the artifact fails startup naming it.
 *
 * <p>The runtime is closed by {@link KestrelRpcLifecycle#stop()} when the context closes (and, as a
 * fallback, when this bean is destroyed). Thread-safe.
 */
public class RpcRuntimeFactoryBean implements FactoryBean<RpcRuntime>, BeanFactoryAware, EnvironmentAware,
        BeanClassLoaderAware, DisposableBean {
    private static final Logger log = LoggerFactory.getLogger(RpcRuntimeFactoryBean.class);

    private ListableBeanFactory beanFactory;
    private Environment environment;
    private ClassLoader classLoader = getClass().getClassLoader();
    private RpcRuntime runtime;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ListableBeanFactory) beanFactory;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    public synchronized RpcRuntime getObject() {
        if (runtime == null) {
            EnvironmentKeys.check(environment);
            ApplicationConfig application = unique(ApplicationConfig.class, "<rpc:application>");
            if (application == null) {
                application = ConfigBinder.application(ConfigSource.environment("rpc.application.", environment),
                        environment.getProperty("spring.application.name", "kestrel-application"));
            }
            RegistryConfig registry = unique(RegistryConfig.class, "<rpc:registry>");
            if (registry == null) {
                registry = ConfigBinder.registry(ConfigSource.environment("rpc.registry.", environment));
            }
            ProtocolConfig protocol = unique(ProtocolConfig.class, "<rpc:protocol>");
            if (protocol == null) {
                protocol = ConfigBinder.protocol(ConfigSource.environment("rpc.protocol.", environment), classLoader);
            }
            RpcRuntime.Builder builder = RpcRuntime.builder().application(application).registry(registry).protocol(protocol)
                    .accessLog(Boolean.parseBoolean(environment.getProperty("rpc.access-log", "false").trim()));
            String callbacks = environment.getProperty("rpc.callbacks");
            if (callbacks != null) { // unset: -Dkestrel.rpc.consumer.callbacks, else pool
                builder.callbacks(Callbacks.parse(callbacks));
            }
            // every interceptor bean applies to the whole runtime, in bean definition order (then by order())
            beanFactory.getBeansOfType(ClientInterceptor.class, false, true).values().forEach(builder::clientInterceptor);
            beanFactory.getBeansOfType(ServerInterceptor.class, false, true).values().forEach(builder::serverInterceptor);
            beanFactory.getBeansOfType(RuntimeAddOn.class, false, true).values().forEach(builder::addOn);
            ConsoleAttachment.attach(builder, this::unique, environment, classLoader);
            runtime = builder.build();
            log.info("RpcRuntime of {} created: {}, {}", application.name(), registry, protocol);
        }
        return runtime;
    }

    /** Whether {@link #getObject()} has built the runtime. */
    public synchronized boolean isCreated() {
        return runtime != null;
    }

    /** Closes the runtime if it was built: unregisters, drains in-flight calls, closes connections. */
    public void closeIfCreated() {
        RpcRuntime r;
        synchronized (this) {
            r = runtime;
        }
        if (r != null) {
            r.close();
        }
    }

    /** The one bean of {@code type}, null when there is none; more than one fails naming {@code element}. */
    <T> T unique(Class<T> type, String element) {
        Map<String, T> beans = beanFactory.getBeansOfType(type, false, true);
        if (beans.size() > 1) {
            throw new IllegalStateException("Found " + beans.size() + " " + type.getSimpleName() + " beans " + beans.keySet()
                    + " (" + element + " elements or @Bean methods); a context has one RpcRuntime and it uses one of each");
        }
        return beans.isEmpty() ? null : beans.values().iterator().next();
    }

    @Override
    public Class<?> getObjectType() {
        return RpcRuntime.class;
    }

    @Override
    public boolean isSingleton() {
        return true;
    }

    @Override
    public void destroy() {
        closeIfCreated();
    }
}
