package io.kestrel.rpc.spring.internal;

import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.RpcService;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Warns when a context has {@link RpcService} beans but nothing that exports them (neither
 * {@code @EnableKestrelRpc}, the XML namespace nor the Spring Boot starter): {@code @RpcService} is a
 * {@code @Component}, so such a context starts fine and silently serves nothing. {@code @RpcService} imports
 * this registrar (a component's {@code @Import} is processed like a configuration class's), which adds this
 * check once per context; it looks when every singleton exists, so the order of the configuration does not
 * matter.
 */
public final class NotEnabledWarning implements ImportBeanDefinitionRegistrar, SmartInitializingSingleton,
        BeanFactoryAware {
    /** Bean name of the check. */
    public static final String BEAN = "kestrelRpcNotEnabledWarning";
    private static final Logger log = LoggerFactory.getLogger(NotEnabledWarning.class);

    private ListableBeanFactory beanFactory;

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        if (!registry.containsBeanDefinition(BEAN)) {
            RootBeanDefinition bd = new RootBeanDefinition(NotEnabledWarning.class);
            bd.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
            registry.registerBeanDefinition(BEAN, bd);
        }
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ListableBeanFactory) beanFactory;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (beanFactory.containsBeanDefinition(KestrelRpcBeans.ANNOTATION_PROCESSOR)) {
            return;
        }
        String[] services = beanFactory.getBeanNamesForAnnotation(RpcService.class);
        if (services.length > 0) {
            log.warn("Kestrel RPC is not enabled in this context, so nothing is exported: @RpcService bean(s) {}"
                    + " stay plain beans (and @RpcReference fields stay null). Add @EnableKestrelRpc to a"
                    + " @Configuration class, or in a Spring Boot application the rpc-spring-boot-starter dependency",
                    Arrays.toString(services));
        }
    }
}
