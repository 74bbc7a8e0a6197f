package io.kestrel.rpc.spring;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.internal.ConfigBinder;
import io.kestrel.rpc.spring.internal.ReferenceBinding;
import io.kestrel.rpc.spring.internal.ConfigSource;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.PropertyValues;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Handles the annotations: injects {@link RpcReference} fields and setters before the bean's init
 * callbacks run, and records each initialised {@link RpcService} bean (the final object, after other
 * post-processors) for {@link KestrelRpcLifecycle} to export when the context starts. Bad attributes fail
 * the annotated bean's creation with the annotation, member and attribute named. Thread-safe.
 */
public class RpcAnnotationBeanPostProcessor implements InstantiationAwareBeanPostProcessor, BeanFactoryAware,
        EnvironmentAware, BeanClassLoaderAware, Ordered {
    private final Map<Class<?>, List<InjectionPoint>> injectionPoints = new ConcurrentHashMap<>();
    private final Map<String, Object> proxies = new ConcurrentHashMap<>();
    private final List<AnnotatedService> services = new CopyOnWriteArrayList<>();
    private BeanFactory beanFactory;
    private Environment environment;
    private ClassLoader classLoader = getClass().getClassLoader();

    /** A service found through {@link RpcService}, with where it was declared. */
    public record AnnotatedService(String source, ServiceConfig<?> config) {
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE - 10;
    }

    /** The {@link RpcService} beans initialised so far, in creation order. */
    public List<AnnotatedService> services() {
        return List.copyOf(services);
    }

    @Override
    public PropertyValues postProcessProperties(PropertyValues pvs, Object bean, String beanName) {
        try {
            for (InjectionPoint point : injectionPoints.computeIfAbsent(ClassUtils.getUserClass(bean),
                    this::findInjectionPoints)) {
                point.inject(bean, reference(point));
            }
        } catch (BeanCreationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new BeanCreationException(beanName, e.getMessage(), e);
        }
        return pvs;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = ClassUtils.getUserClass(bean);
        RpcService annotation = AnnotatedElementUtils.findMergedAnnotation(type, RpcService.class);
        if (annotation != null) {
            String where = "@RpcService on " + type.getName();
            try {
                services.add(new AnnotatedService(where, serviceConfig(where, annotation, type, bean)));
            } catch (RuntimeException e) {
                throw new BeanCreationException(beanName, e.getMessage(), e);
            }
        }
        return bean;
    }

    private ServiceConfig<?> serviceConfig(String where, RpcService a, Class<?> type, Object bean) {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("version", a.version());
        attrs.put("group", a.group());
        attrs.put("timeout", a.timeout());
        attrs.put("weight", a.weight());
        attrs.put("warmup", a.warmup());
        attrs.put("serialization", String.join(",", a.serialization()));
        attrs.put("executes", a.executes());
        attrs.put("dispatch", a.dispatch());
        attrs.put("interceptors", classNames(a.interceptors()));
        attrs.put("allowed-principals", String.join(",", a.allowedPrincipals()));
        attrs.put("allowed-roles", String.join(",", a.allowedRoles()));
        attrs.put("generic", a.generic());
        ConfigSource src = ConfigSource.attributes(where, attrs, environment);
        Class<?> iface = a.interfaceClass();
        if (iface == void.class) {
            List<Class<?>> candidates = new ArrayList<>();
            for (Class<?> i : ClassUtils.getAllInterfacesForClassAsSet(type)) {
                String n = i.getName();
                if (!n.startsWith("java.") && !n.startsWith("javax.") && !n.startsWith("jakarta.")
                        && !n.startsWith("org.springframework.") && !n.startsWith("groovy.")) {
                    candidates.add(i);
                }
            }
            if (candidates.size() != 1) {
                throw src.error("interfaceClass", null, type.getName() + " implements " + (candidates.isEmpty()
                        ? "no service interface" : candidates.size() + " interfaces " + candidates.stream()
                        .map(Class::getName).toList()) + "; name the one to export with interfaceClass", null);
            }
            iface = candidates.get(0);
        }
        return ConfigBinder.service(src, ConfigSource.environment("rpc.service.", environment), iface, bean);
    }

    private Object reference(InjectionPoint point) {
        RpcReference a = point.annotation;
        Map<String, String> attrs = new TreeMap<>();
        attrs.put("version", a.version());
        attrs.put("group", a.group());
        attrs.put("timeout", a.timeout());
        attrs.put("retries", a.retries());
        attrs.put("loadbalance", a.loadbalance());
        attrs.put("cluster", a.cluster());
        attrs.put("serialization", a.serialization());
        attrs.put("optimizer", a.optimizer() == void.class ? "" : a.optimizer().getName());
        attrs.put("url", a.url());
        attrs.put("protocol", a.protocol());
        attrs.put("check", a.check());
        attrs.put("async", a.async());
        attrs.put("idempotent", a.idempotent());
        attrs.put("connect-timeout", a.connectTimeout());
        attrs.put("actives", a.actives());
        attrs.put("propagate-deadline", a.propagateDeadline());
        attrs.put("outlier-failures", a.outlierFailures());
        attrs.put("outlier-ejection", a.outlierEjection());
        attrs.put("outlier-max-ejection", a.outlierMaxEjection());
        attrs.put("outlier-max-ejected-percent", a.outlierMaxEjectedPercent());
        attrs.put("retry-budget-percent", a.retryBudgetPercent());
        attrs.put("retry-budget-min-per-second", a.retryBudgetMinPerSecond());
        attrs.put("interceptors", classNames(a.interceptors()));
        attrs.put("token", a.token());
        Class<?> iface = a.interfaceClass() != void.class ? a.interfaceClass() : point.type;
        if (!point.type.isAssignableFrom(iface)) {
            throw new IllegalArgumentException(point.where + " attribute 'interfaceClass' = \"" + iface.getName()
                    + "\": not assignable to the injected type " + point.type.getName());
        }
        String key = iface.getName() + attrs;
        Object proxy = proxies.get(key);
        if (proxy == null) {
            synchronized (proxies) {
                proxy = proxies.get(key);
                if (proxy == null) {
                    proxy = create(point.where, attrs, iface);
                    proxies.put(key, proxy);
                }
            }
        }
        return proxy;
    }

    private <T> T create(String where, Map<String, String> attrs, Class<T> iface) {
        ConfigSource src = ConfigSource.attributes(where, attrs, environment);
        ReferenceConfig<T> config = ReferenceBinding.reference(src, ConfigSource.environment("rpc.reference.", environment),
                iface, classLoader);
        return ReferenceBean.refer(beanFactory.getBean(KestrelRpcBeans.RUNTIME, RpcRuntime.class), config, where);
    }

    private static String classNames(Class<?>[] types) {
        return java.util.Arrays.stream(types).map(Class::getName).collect(java.util.stream.Collectors.joining(","));
    }

    private List<InjectionPoint> findInjectionPoints(Class<?> type) {
        List<InjectionPoint> points = new ArrayList<>();
        ReflectionUtils.doWithFields(type, field -> {
            RpcReference a = AnnotatedElementUtils.findMergedAnnotation(field, RpcReference.class);
            if (a != null) {
                String where = "@RpcReference on field " + field.getDeclaringClass().getName() + "." + field.getName();
                if (Modifier.isStatic(field.getModifiers()) || Modifier.isFinal(field.getModifiers())) {
                    throw new IllegalStateException(where + ": static and final fields cannot be injected");
                }
                points.add(new InjectionPoint(where, a, field.getType(), field, null));
            }
        });
        ReflectionUtils.doWithMethods(type, method -> {
            RpcReference a = AnnotatedElementUtils.findMergedAnnotation(method, RpcReference.class);
            if (a != null && method.equals(ClassUtils.getMostSpecificMethod(method, type))) {
                String where = "@RpcReference on method " + method.getDeclaringClass().getName() + "." + method.getName()
                        + "()";
                if (Modifier.isStatic(method.getModifiers()) || method.getParameterCount() != 1) {
                    throw new IllegalStateException(where + ": only non-static methods with one parameter (setters)"
                            + " can be injected");
                }
                points.add(new InjectionPoint(where, a, method.getParameterTypes()[0], null, method));
            }
        });
        return List.copyOf(points);
    }

    private record InjectionPoint(String where, RpcReference annotation, Class<?> type, Field field, Method method) {
        void inject(Object bean, Object value) {
            if (field != null) {
                ReflectionUtils.makeAccessible(field);
                ReflectionUtils.setField(field, bean, value);
            } else {
                ReflectionUtils.makeAccessible(method);
                ReflectionUtils.invokeMethod(method, bean, value);
            }
        }
    }
}
