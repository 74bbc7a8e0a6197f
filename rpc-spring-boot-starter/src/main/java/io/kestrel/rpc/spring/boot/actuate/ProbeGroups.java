package io.kestrel.rpc.spring.boot.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * Makes the Kestrel RPC health contributors members of Boot's Kubernetes probe groups, when the probes are
 * on ({@code management.endpoint.health.probes.enabled=true}, or running on Kubernetes): readiness is
 * {@code readinessState,kestrel} (not ready while the server is not accepting; the registry connection and
 * {@code check=true} references without a ready provider count only when {@value #INCLUDES_REGISTRY} and
 * {@value #INCLUDES_REFERENCES} say so, see {@link #counted}), liveness is {@code livenessState,kestrelServer}
 * (the server alone). It only supplies defaults, as the last property source, before any health bean exists: a
 * group the application configures itself ({@code management.endpoint.health.group.readiness.include}) is
 * left as it is.
 */
public class ProbeGroups implements BeanFactoryPostProcessor, EnvironmentAware {
    /** Name of the health contributor for registry, server and references. */
    public static final String KESTREL = "kestrel";
    /** Name of the health contributor for the server alone. */
    public static final String KESTREL_SERVER = "kestrelServer";
    /** Whether a lost registry connection makes {@code kestrel} (and so readiness) DOWN. Default false. */
    public static final String INCLUDES_REGISTRY = "management.health.kestrel.readiness-includes-registry";
    /** Whether a {@code check=true} reference without a ready provider makes {@code kestrel} DOWN. Default false. */
    public static final String INCLUDES_REFERENCES = "management.health.kestrel.readiness-includes-references";
    static final String READINESS = "management.endpoint.health.group.readiness.include";
    static final String LIVENESS = "management.endpoint.health.group.liveness.include";
    private static final Logger log = LoggerFactory.getLogger(ProbeGroups.class);

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        if (!(environment instanceof ConfigurableEnvironment env) || !probesEnabled(env)) {
            return;
        }
        Map<String, Object> defaults = new LinkedHashMap<>();
        if (!env.containsProperty(READINESS)) {
            defaults.put(READINESS, "readinessState," + KESTREL);
        }
        if (!env.containsProperty(LIVENESS)) {
            defaults.put(LIVENESS, "livenessState," + KESTREL_SERVER);
        }
        if (!defaults.isEmpty()) {
            env.getPropertySources().addLast(new MapPropertySource("kestrelRpcProbeGroups", defaults));
            log.debug("Kestrel RPC health in the probe groups: {}", defaults);
        }
    }

    /**
     * What the {@code kestrel} contributor counts besides the server: by default nothing, so readiness does not
     * cascade (a ZooKeeper blink or a downstream outage would otherwise take every pod out of its Service).
     */
    static KestrelRpcHealth.Counted counted(Environment env) {
        return new KestrelRpcHealth.Counted(env.getProperty(INCLUDES_REGISTRY, Boolean.class, false),
                env.getProperty(INCLUDES_REFERENCES, Boolean.class, false));
    }

    private static boolean probesEnabled(ConfigurableEnvironment env) {
        return env.getProperty("management.endpoint.health.probes.enabled", Boolean.class, false)
                || CloudPlatform.getActive(env) == CloudPlatform.KUBERNETES;
    }
}
