package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ReferenceBinding;
import io.kestrel.rpc.spring.internal.ConfigSource;
import java.util.Map;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * The bean behind {@code <rpc:reference id=".." interface=".."/>}: a factory of the proxy of a remote
 * service. The proxy is created, and with {@code check="true"} (the default) a reachable provider is
 * required, when this bean is initialised, i.e. during the context's startup; a missing provider then
 * fails the startup with the reference named.
 *
 * <p>Attributes not set on the element take their defaults from {@code rpc.reference.timeout},
 * {@code .retries}, {@code .loadbalance}, {@code .cluster}, {@code .check} and {@code .connect-timeout} in
 * the Spring {@code Environment}, then from {@link ReferenceConfig.Builder}.
 *
 * <p>References are created before the context's own services are exported (those are exported when the
 * context starts), so a context that calls a service it exports itself sets {@code check="false"} on that
 * reference.
 *
 * <p>{@code async="true"} creates the same proxy: a method declared to return {@code CompletableFuture}
 * or {@code CompletionStage} is always called asynchronously (the caller's thread never waits), other
 * methods block. The attribute states that the reference is used asynchronously, and startup fails if the
 * interface has no such method.
 *
 * @param <T> the service interface
 */
public class ReferenceBean<T> implements FactoryBean<T>, InitializingBean, BeanFactoryAware, EnvironmentAware,
        BeanClassLoaderAware {
    private String source = "<rpc:reference>";
    private Class<T> interfaceClass;
    private String genericInterface;
    private Map<String, String> attributes = Map.of();
    private BeanFactory beanFactory;
    private Environment environment;
    private ClassLoader classLoader = getClass().getClassLoader();
    private ReferenceConfig<T> config;
    private T proxy;

    /** How the element is shown in messages. */
    public void setSource(String source) {
        this.source = source;
    }

    /** The service interface ({@code interface}). */
    public void setInterfaceClass(Class<T> interfaceClass) {
        this.interfaceClass = interfaceClass;
    }

    /**
     * For {@code generic="true"}: the remote interface's name; the proxy is then a
     * {@link io.kestrel.rpc.api.generic.GenericService} and {@code interfaceClass} is that type. Placeholders
     * ({@code ${...}}) in the name are resolved against the Environment.
     */
    public void setGenericInterface(String genericInterface) {
        this.genericInterface = genericInterface;
    }

    /** The other attributes, name to raw text. */
    public void setAttributes(Map<String, String> attributes) {
        this.attributes = Map.copyOf(attributes);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
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
    public void afterPropertiesSet() {
        ConfigSource src = ConfigSource.attributes(source, attributes, environment);
        if (interfaceClass == null) {
            throw src.error("interface", null, "is required", null);
        }
        config = genericInterface != null
                ? ReferenceBinding.genericReference(src, ConfigSource.environment("rpc.reference.", environment),
                        environment != null ? environment.resolveRequiredPlaceholders(genericInterface) : genericInterface,
                        interfaceClass, classLoader)
                : ReferenceBinding.reference(src, ConfigSource.environment("rpc.reference.", environment),
                        interfaceClass, classLoader);
        proxy = refer(beanFactory.getBean(KestrelRpcBeans.RUNTIME, RpcRuntime.class), config, source);
    }

    /**
     * Creates the proxy; a missing provider becomes a {@link NoProviderException} naming {@code where} and
     * its {@code check} attribute, other configuration errors an {@link IllegalArgumentException} naming
     * {@code where}.
     */
    static <T> T refer(RpcRuntime runtime, ReferenceConfig<T> config, String where) {
        try {
            return runtime.refer(config);
        } catch (NoProviderException e) {
            throw new NoProviderException(where + " attribute 'check' is true (the default) and: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /** The reference's settings; available once the bean is initialised. */
    public ReferenceConfig<T> getReferenceConfig() {
        return config;
    }

    @Override
    public T getObject() {
        return proxy;
    }

    @Override
    public Class<?> getObjectType() {
        return interfaceClass;
    }

    @Override
    public boolean isSingleton() {
        return true;
    }
}
