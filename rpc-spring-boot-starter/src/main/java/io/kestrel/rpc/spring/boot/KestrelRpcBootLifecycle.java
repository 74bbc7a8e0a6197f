package io.kestrel.rpc.spring.boot;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.KestrelRpcLifecycle;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * What a Boot application needs around {@link KestrelRpcLifecycle}, which exports on start and unregisters,
 * drains and closes on stop. This bean's phase is one above it, so it starts right after the export and
 * stops right before the shutdown:
 * <ul>
 *   <li><b>keep-alive</b>: the framework's threads are daemons, so a provider-only application without a web
 *       server would exit right after "Started". While services are exported, a non-daemon thread
 *       ({@value #KEEP_ALIVE_THREAD}) keeps the JVM up; it ends when the context is closed (SIGTERM, or
 *       {@code close()}), after the runtime is closed.</li>
 *   <li><b>readiness first</b>: on stop, the application's readiness goes to {@code REFUSING_TRAFFIC} (Boot
 *       does this itself for web applications; here it also happens for non-web ones), so a Kubernetes
 *       readiness probe fails before the services are unregistered and drained in the next phase. This
 *       is the phase of Boot's web-server graceful shutdown, so HTTP and RPC drain side by side.</li>
 * </ul>
 */
public class KestrelRpcBootLifecycle implements SmartLifecycle, BeanFactoryAware, DisposableBean {
    /** Name of the keep-alive thread. */
    public static final String KEEP_ALIVE_THREAD = "kestrel-rpc-keep-alive";
    private static final Logger log = LoggerFactory.getLogger(KestrelRpcBootLifecycle.class);

    private final ApplicationEventPublisher events;
    private final CountDownLatch closed = new CountDownLatch(1);
    private BeanFactory beanFactory;
    private volatile boolean running;

    public KestrelRpcBootLifecycle(ApplicationEventPublisher events) {
        this.events = events;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void start() {
        running = true;
        RpcRuntime runtime = beanFactory.getBean(KestrelRpcBeans.RUNTIME, RpcRuntime.class);
        int services = runtime.inspect().services().size();
        if (services > 0) {
            Thread keepAlive = new Thread(this::awaitClose, KEEP_ALIVE_THREAD);
            keepAlive.setDaemon(false);
            keepAlive.start();
            log.info("Exporting {} service(s) on port {}; {} keeps the application running until it is closed",
                    services, runtime.boundPort(), KEEP_ALIVE_THREAD);
        }
    }

    private void awaitClose() {
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stop() {
        running = false;
        ApplicationAvailability availability = beanFactory.getBeanProvider(ApplicationAvailability.class).getIfAvailable();
        if (availability == null || availability.getReadinessState() != ReadinessState.REFUSING_TRAFFIC) {
            AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
        }
        log.info("Kestrel RPC shutting down: readiness is REFUSING_TRAFFIC; next: unregister, drain, close");
    }

    /** After every lifecycle bean stopped (the runtime is closed): lets the keep-alive thread end. */
    @Override
    public void destroy() {
        closed.countDown();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return KestrelRpcLifecycle.PHASE + 1;
    }
}
