package io.kestrel.rpc.spring;

import io.kestrel.rpc.console.ConsoleConfig;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ConfigSource;

/**
 * The bean behind {@code <rpc:console enabled="true" port=".." token=".." allow-invoke=".." allow-mutations=".."/>};
 * produces a {@link ConsoleConfig}, from which the context's runtime attaches the console. Registered only when
 * {@code io.kestrel:rpc-console} is on the class path.
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
