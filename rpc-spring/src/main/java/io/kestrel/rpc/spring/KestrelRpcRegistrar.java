package io.kestrel.rpc.spring;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/** Registers the infrastructure beans for {@link EnableKestrelRpc}; see {@link KestrelRpcBeans}. */
public class KestrelRpcRegistrar implements ImportBeanDefinitionRegistrar {
    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        KestrelRpcBeans.registerInfrastructure(registry);
    }
}
