package io.kestrel.rpc.spring;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * Names of the infrastructure beans the XML namespace and {@link EnableKestrelRpc} register, and the
 * registration itself. Both register the same three beans once per context, so XML and annotations can
 * be mixed in one context:
 * <ul>
 *   <li>{@value #RUNTIME} - {@link RpcRuntimeFactoryBean}, the context's one {@link io.kestrel.rpc.core.RpcRuntime};</li>
 *   <li>{@value #LIFECYCLE} - {@link KestrelRpcLifecycle}, exports on start, closes the runtime on stop;</li>
 *   <li>{@value #ANNOTATION_PROCESSOR} - {@link RpcAnnotationBeanPostProcessor}, handles {@link RpcService}
 *       and {@link RpcReference}.</li>
 * </ul>
 */
public final class KestrelRpcBeans {
    /** Bean name of the context's {@link io.kestrel.rpc.core.RpcRuntime}. */
    public static final String RUNTIME = "kestrelRpcRuntime";
    /** Bean name of the {@link KestrelRpcLifecycle}. */
    public static final String LIFECYCLE = "kestrelRpcLifecycle";
    /** Bean name of the {@link RpcAnnotationBeanPostProcessor}. */
    public static final String ANNOTATION_PROCESSOR = "kestrelRpcAnnotationProcessor";

    private KestrelRpcBeans() {
    }

    /** Registers the infrastructure beans that are not registered yet. */
    public static void registerInfrastructure(BeanDefinitionRegistry registry) {
        register(registry, RUNTIME, RpcRuntimeFactoryBean.class);
        register(registry, LIFECYCLE, KestrelRpcLifecycle.class);
        register(registry, ANNOTATION_PROCESSOR, RpcAnnotationBeanPostProcessor.class);
    }

    private static void register(BeanDefinitionRegistry registry, String name, Class<?> type) {
        if (!registry.containsBeanDefinition(name)) {
            RootBeanDefinition bd = new RootBeanDefinition(type);
            bd.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
            registry.registerBeanDefinition(name, bd);
        }
    }
}
