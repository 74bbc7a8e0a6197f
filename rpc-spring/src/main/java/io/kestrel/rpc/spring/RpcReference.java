package io.kestrel.rpc.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Injects the proxy of a remote service into a field or a one-argument setter, the annotation form of
 * {@code <rpc:reference>}. Handled by {@link RpcAnnotationBeanPostProcessor} (registered by
 * {@link EnableKestrelRpc} and by the XML namespace). The proxy is created, and with check on a reachable
 * provider required, while the annotated bean is created; injection points with the same interface and
 * attributes share one proxy.
 *
 * <p>All attributes are text so that they may hold {@code ${...}} placeholders; blank means "not set",
 * and then {@code rpc.reference.timeout}, {@code .retries}, {@code .loadbalance}, {@code .cluster},
 * {@code .check} and {@code .connect-timeout} of the Spring {@code Environment} apply, then the framework
 * defaults. Meaning and values of each attribute are those of the same-named XML attribute.
 *
 * <pre>{@code
 * @RpcReference(timeout = "500ms", retries = "0")
 * private UserService users;
 * }</pre>
 */
@Target({ElementType.FIELD, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RpcReference {
    /** The remote interface; default: the field's or setter parameter's type. */
    Class<?> interfaceClass() default void.class;

    /** Service version. */
    String version() default "";

    /** Service group. */
    String group() default "";

    /** Deadline of each call: milliseconds or 500ms/3s. Default: the provider's published service timeout, else 3 s. */
    String timeout() default "";

    /** Extra attempts on other providers with cluster failover. Default 2. */
    String retries() default "";

    /** random, roundrobin, leastactive or consistenthash. Default random. */
    String loadbalance() default "";

    /** failover, failfast or failsafe. Default failover. */
    String cluster() default "";

    /** Serialization name; default: each provider's preferred one (from its registry record or handshake). */
    String serialization() default "";

    /**
     * Class registering serializable classes (a {@code SerializationOptimizer}); default: the provider's, loaded by
     * name.
     */
    Class<?> optimizer() default void.class;

    /**
     * Direct provider addresses "host:port[,host:port]", bypassing the registry; "dubbo://host:port" calls a
     * stock Apache Dubbo provider (see {@link #protocol()}).
     */
    String url() default "";

    /** "dubbo" to call Apache Dubbo providers on their dubbo protocol. Default "kestrel", the native protocol. */
    String protocol() default "";

    /** "false" lets startup go on without a reachable provider. Default true. */
    String check() default "";

    /**
     * "true" declares every method safe to run twice, so failover also retries timeouts and calls
     * whose connection was lost in flight. Default false: only calls that certainly did not run are retried.
     */
    String idempotent() default "";

    /** "true" asserts the interface has CompletableFuture-returning methods (see {@link ReferenceBean}). */
    String async() default "";

    /** TCP connect timeout: milliseconds or 500ms/3s. Default 3 s. */
    String connectTimeout() default "";

    /** Most calls of each method in flight from this consumer, failed at once beyond; "" or "0": no limit. */
    String actives() default "";

    /** Whether calls made while serving a call get at most its remaining time. Default true. */
    String propagateDeadline() default "";

    /** Timeouts or transport failures in a row that eject a provider from balancing; "0": off. Default 5. */
    String outlierFailures() default "";

    /** The first ejection's length, doubling on each ejection in a row. Default 1 s. */
    String outlierEjection() default "";

    /** The longest ejection. Default 30 s. */
    String outlierMaxEjection() default "";

    /** Largest share of the providers ejected at once, in percent. Default 50. */
    String outlierMaxEjectedPercent() default "";

    /** Failover retries allowed as a share of calls over 10 s, in percent. Default 20. */
    String retryBudgetPercent() default "";

    /** Retries allowed per second on top of the share. Default 10. */
    String retryBudgetMinPerSecond() default "";

    /** Interceptors for this reference only (one instance each, public no-arg constructor); interceptor beans apply to all. */
    Class<? extends io.kestrel.rpc.api.interceptor.ClientInterceptor>[] interceptors() default {};

    /**
     * Token sent once per connection for the provider's authenticator; use a {@code ${...}} placeholder.
     * Default: {@code rpc.reference.token}. TLS for annotated references comes from {@code rpc.reference.tls-*}.
     */
    String token() default "";
}
