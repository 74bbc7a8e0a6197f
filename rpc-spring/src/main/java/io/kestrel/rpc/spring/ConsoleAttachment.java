package io.kestrel.rpc.spring;

import io.kestrel.rpc.console.ConsoleConfig;
import io.kestrel.rpc.console.KestrelConsole;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ConfigSource;
import java.util.function.BiFunction;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Attaches the web console (the optional artifact {@code io.kestrel:rpc-console}) that a context configures to its
 * runtime: the {@code <rpc:console>} element, else the {@code rpc.console.*} keys. Its types are touched only by
 * {@link Present}, which is loaded only when the artifact is on the class path, so rpc-spring runs without it.
 */
final class ConsoleAttachment {
    private static final String CONSOLE_CLASS = "io.kestrel.rpc.console.KestrelConsole";

    private ConsoleAttachment() {
    }

    /**
     * Adds the configured console to {@code builder}; nothing when it is not enabled.
     *
     * @param unique the one bean of a type (null for none), failing when there are several
     * @throws IllegalStateException when {@code rpc.console.enabled} is true and the artifact is missing
     */
    static void attach(RpcRuntime.Builder builder, BiFunction<Class<?>, String, Object> unique, Environment environment,
            ClassLoader loader) {
        if (ClassUtils.isPresent(CONSOLE_CLASS, loader)) {
            Present.attach(builder, unique, environment);
        } else if (Boolean.parseBoolean(environment.getProperty("rpc.console.enabled", "false").trim())) {
            throw new IllegalStateException("The web console is enabled (rpc.console.enabled=true) but its artifact"
                    + " io.kestrel:rpc-console is not on the class path: add that dependency, or turn the console off");
        }
    }

    /** The part that needs rpc-console's classes. */
    private static final class Present {
        static void attach(RpcRuntime.Builder builder, BiFunction<Class<?>, String, Object> unique,
                Environment environment) {
            ConsoleConfig config = (ConsoleConfig) unique.apply(ConsoleConfig.class, "<rpc:console>");
            if (config == null) {
                config = ConfigBinder.console(ConfigSource.environment("rpc.console.", environment));
            }
            if (config.enabled()) {
                builder.addOn(KestrelConsole.of(config));
            }
        }
    }
}
