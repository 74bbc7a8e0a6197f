package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ConfigSource;

/** The bean behind {@code <rpc:application name=".."/>}; produces an {@link ApplicationConfig}. */
public class ApplicationConfigBean extends AbstractConfigBean<ApplicationConfig> {
    @Override
    protected ApplicationConfig build(ConfigSource src, ClassLoader loader) {
        if (!src.has("name")) {
            throw src.error("name", null, "is required and must not be blank", null);
        }
        return ConfigBinder.application(src, null);
    }

    @Override
    protected String defaultSource() {
        return "<rpc:application>";
    }

    @Override
    public Class<?> getObjectType() {
        return ApplicationConfig.class;
    }
}
