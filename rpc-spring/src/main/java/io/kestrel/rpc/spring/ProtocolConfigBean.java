package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ConfigSource;

/**
 * The bean behind {@code <rpc:protocol port=".." serialization=".." .../>}; produces a
 * {@link ProtocolConfig}. An unknown serialization name fails here, at startup.
 */
public class ProtocolConfigBean extends AbstractConfigBean<ProtocolConfig> {
    @Override
    protected ProtocolConfig build(ConfigSource src, ClassLoader loader) {
        return ConfigBinder.protocol(src, loader);
    }

    @Override
    protected String defaultSource() {
        return "<rpc:protocol>";
    }

    @Override
    public Class<?> getObjectType() {
        return ProtocolConfig.class;
    }
}
