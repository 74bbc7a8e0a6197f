package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.config.ConsoleConfig;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ConfigSource;

/**
 * The bean behind {@code <rpc:console enabled="true" port=".." token=".." allow-invoke=".." allow-mutations=".."/>};
 * produces a {@link ConsoleConfig}. Serving it needs {@code io.kestrel:rpc-console} on the class path.
 */
public class ConsoleConfigBean extends AbstractConfigBean<ConsoleConfig> {
    @Override
    protected ConsoleConfig build(ConfigSource src, ClassLoader loader) {
        return ConfigBinder.console(src);
    }

    @Override
    protected String defaultSource() {
        return "<rpc:console>";
    }

    @Override
    public Class<?> getObjectType() {
        return ConsoleConfig.class;
    }
}
