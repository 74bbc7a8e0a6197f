package io.kestrel.rpc.spring;

import io.kestrel.rpc.spring.internal.ConfigSource;
import java.util.Map;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Base of the beans behind {@code <rpc:application>}, {@code <rpc:registry>} and {@code <rpc:protocol>}:
 * holds the element's attribute text and turns it into one immutable config object when the bean is
 * initialised, so a bad value fails the context's startup with the element and attribute named.
 * Attribute values may contain {@code ${...}} placeholders, resolved against the Spring {@code Environment}.
 *
 * @param <T> the config type produced
 */
public abstract class AbstractConfigBean<T> implements FactoryBean<T>, InitializingBean, EnvironmentAware,
        BeanClassLoaderAware {
    private String source;
    private Map<String, String> attributes = Map.of();
    private Environment environment;
    private ClassLoader classLoader = getClass().getClassLoader();
    private T config;

    /** How the element is shown in messages, e.g. {@code <rpc:protocol>}. */
    public void setSource(String source) {
        this.source = source;
    }

    /** The element's attributes, name to raw text. */
    public void setAttributes(Map<String, String> attributes) {
        this.attributes = Map.copyOf(attributes);
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
        config = build(ConfigSource.attributes(source != null ? source : defaultSource(), attributes, environment),
                classLoader);
    }

    /** Converts the attributes; throws {@link IllegalArgumentException} naming the attribute on bad input. */
    protected abstract T build(ConfigSource src, ClassLoader loader);

    /** How the element is named when no source was set. */
    protected abstract String defaultSource();

    @Override
    public T getObject() {
        if (config == null) {
            afterPropertiesSet();
        }
        return config;
    }

    @Override
    public boolean isSingleton() {
        return true;
    }
}
