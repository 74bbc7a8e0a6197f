package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ConfigSource;
import java.util.Map;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * The bean behind {@code <rpc:service interface=".." ref=".."/>}: one service to export. The typed
 * {@link ServiceConfig} is built (and checked) when the bean is initialised; the export itself happens
 * when the context starts, in {@link KestrelRpcLifecycle}, after every bean is ready.
 */
public class ServiceBean implements InitializingBean, EnvironmentAware {
    private String source = "<rpc:service>";
    private Class<?> interfaceClass;
    private Object ref;
    private Map<String, String> attributes = Map.of();
    private Environment environment;
    private ServiceConfig<?> config;

    /** How the element is shown in messages. */
    public void setSource(String source) {
        this.source = source;
    }

    /** The service interface ({@code interface}). */
    public void setInterfaceClass(Class<?> interfaceClass) {
        this.interfaceClass = interfaceClass;
    }

    /** The implementation ({@code ref}). */
    public void setRef(Object ref) {
        this.ref = ref;
    }

    /** The other attributes: version, group, timeout, weight, serialization. */
    public void setAttributes(Map<String, String> attributes) {
        this.attributes = Map.copyOf(attributes);
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void afterPropertiesSet() {
        ConfigSource src = ConfigSource.attributes(source, attributes, environment);
        if (interfaceClass == null) {
            throw src.error("interface", null, "is required", null);
        }
        if (ref == null) {
            throw src.error("ref", null, "is required: the name of the bean implementing " + interfaceClass.getName(), null);
        }
        config = ConfigBinder.service(src, ConfigSource.environment("rpc.service.", environment), interfaceClass, ref);
    }

    /** The service to export; available once the bean is initialised. */
    public ServiceConfig<?> getServiceConfig() {
        return config;
    }

    /** How the element is shown in messages. */
    public String getSource() {
        return source;
    }

    @Override
    public String toString() {
        return source + " " + config;
    }
}
