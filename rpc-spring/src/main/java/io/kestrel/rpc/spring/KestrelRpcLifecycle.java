package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Exports the context's services when it starts (during refresh, once every singleton exists, before
 * {@code ContextRefreshedEvent}) and closes the {@link RpcRuntime} when it stops: every service is
 * unregistered first, consumers get a moment to see it, in-flight calls finish within the protocol's
 * {@code shutdown-timeout}, then connections and the registry close. It runs in a late phase, so it starts
 * after and stops before ordinary lifecycle beans, while the service implementations still exist.
 *
 * <p>Stopping is final: references of the context stop working and a later {@code start()} fails.
 */
public class KestrelRpcLifecycle implements SmartLifecycle, BeanFactoryAware {
    /** Phase: later than the default-phase beans minus a margin, so ours start last and stop first. */
    public static final int PHASE = Integer.MAX_VALUE - 1024;
    private static final Logger log = LoggerFactory.getLogger(KestrelRpcLifecycle.class);

    private ListableBeanFactory beanFactory;
    private volatile boolean running;
    private volatile boolean stopped;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ListableBeanFactory) beanFactory;
    }

    @Override
    public void start() {
        if (stopped) {
            throw new IllegalStateException("Kestrel RPC of this context was stopped (its RpcRuntime is closed);"
                    + " create a new context to serve again");
        }
        List<String> sources = new ArrayList<>();
        List<ServiceConfig<?>> configs = new ArrayList<>();
        for (ServiceBean s : beanFactory.getBeansOfType(ServiceBean.class, false, true).values()) {
            sources.add(s.getSource());
            configs.add(s.getServiceConfig());
        }
        for (RpcAnnotationBeanPostProcessor.AnnotatedService s : beanFactory.getBean(
                KestrelRpcBeans.ANNOTATION_PROCESSOR, RpcAnnotationBeanPostProcessor.class).services()) {
            sources.add(s.source());
            configs.add(s.config());
        }
        // built even with nothing to export, so that bad rpc.* settings fail the startup, not a later call
        RpcRuntime runtime = beanFactory.getBean(KestrelRpcBeans.RUNTIME, RpcRuntime.class);
        if (!configs.isEmpty()) {
            for (int i = 0; i < configs.size(); i++) {
                try {
                    runtime.export(configs.get(i));
                } catch (RuntimeException e) {
                    throw new IllegalStateException(sources.get(i) + ": exporting " + configs.get(i).key() + " failed: "
                            + e.getMessage(), e);
                }
            }
            log.info("Exported {} service(s) on port {}", configs.size(), runtime.boundPort());
        }
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        stopped = true;
        beanFactory.getBean("&" + KestrelRpcBeans.RUNTIME, RpcRuntimeFactoryBean.class).closeIfCreated();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
