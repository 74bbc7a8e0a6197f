package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ConfigSource;

/**
 * The bean behind {@code <rpc:registry address=".."/>}; produces a {@link RegistryConfig}. Addresses:
 * {@code zookeeper://host:port[,host:port]}, {@code embedded} (an in-process ZooKeeper on a free port) or
 * {@code embedded://port}.
 */
public class RegistryConfigBean extends AbstractConfigBean<RegistryConfig> {
    @Override
    protected RegistryConfig build(ConfigSource src, ClassLoader loader) {
        return ConfigBinder.registry(src);
    }

    @Override
    protected String defaultSource() {
        return "<rpc:registry>";
    }

    @Override
    public Class<?> getObjectType() {
        return RegistryConfig.class;
    }
}
