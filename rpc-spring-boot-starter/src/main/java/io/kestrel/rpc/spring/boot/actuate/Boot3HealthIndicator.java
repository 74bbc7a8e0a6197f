package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.core.RpcRuntime;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.function.Function;
import org.springframework.beans.factory.FactoryBean;

/**
 * {@link KestrelRpcHealth} as a Spring Boot 3 health indicator ({@value #HEALTH_INDICATOR}). The starter is
 * compiled against Boot 4, whose health API lives elsewhere, so on Boot 3 the indicator is a proxy of Boot 3's
 * interface that builds Boot 3's {@code Health} reflectively. A factory bean, so that its type is Boot 3's
 * {@code HealthIndicator} before it is created and the actuator finds it.
 */
public class Boot3HealthIndicator implements FactoryBean<Object> {
    /** Boot 3's health indicator interface. */
    public static final String HEALTH_INDICATOR = "org.springframework.boot.actuate.health.HealthIndicator";
    private static final String HEALTH = "org.springframework.boot.actuate.health.Health";

    private final RpcRuntime runtime;
    private final Function<RpcRuntime, KestrelRpcHealth> check;
    private final ClassLoader loader;

    /** @param check {@link KestrelRpcHealth#of} or {@link KestrelRpcHealth#server} */
    public Boot3HealthIndicator(RpcRuntime runtime, Function<RpcRuntime, KestrelRpcHealth> check) {
        this.runtime = runtime;
        this.check = check;
        this.loader = Boot3HealthIndicator.class.getClassLoader();
    }

    @Override
    public Object getObject() {
        Class<?> type = getObjectType();
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getName().equals("health") && method.getParameterCount() == 0) {
                return health();
            }
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            return switch (method.getName()) {
                case "toString" -> "KestrelRpcHealthIndicator(Boot 3)";
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(method.toString());
            };
        };
        return Proxy.newProxyInstance(loader, new Class<?>[] {type}, handler);
    }

    private Object health() throws ReflectiveOperationException {
        KestrelRpcHealth h = check.apply(runtime);
        Class<?> health = Class.forName(HEALTH, false, loader);
        Object builder = health.getMethod(h.up() ? "up" : "down").invoke(null);
        Method withDetails = builder.getClass().getMethod("withDetails", Map.class);
        builder = withDetails.invoke(builder, h.details());
        return builder.getClass().getMethod("build").invoke(builder);
    }

    @Override
    public Class<?> getObjectType() {
        try {
            return Class.forName(HEALTH_INDICATOR, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("Boot 3 actuator (" + HEALTH_INDICATOR + ") is not on the class path", e);
        }
    }
}
