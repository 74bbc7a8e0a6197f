package io.kestrel.rpc.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import io.kestrel.rpc.spring.internal.NotEnabledWarning;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.AliasFor;
import org.springframework.stereotype.Component;

/**
 * Marks a service implementation to export, the annotation form of {@code <rpc:service>}. It is a
 * {@link Component}, so component scanning picks the class up; the export happens when the context starts
 * (requires {@link EnableKestrelRpc}, the XML namespace or the Spring Boot starter in the context; without
 * any of them the context logs a warning that nothing is exported). Attribute values may contain
 * {@code ${...}} placeholders; blank means "not set".
 *
 * <pre>{@code
 * @RpcService(version = "1.0", timeout = "2s")
 * public class UserServiceImpl implements UserService { ... }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
@Import(NotEnabledWarning.class) // a context with @RpcService beans but nothing exporting them logs a warning
public @interface RpcService {
    /** The bean name, as {@link Component#value()}. */
    @AliasFor(annotation = Component.class)
    String value() default "";

    /** The interface to export; default: the one interface the class implements (it fails if there are several). */
    Class<?> interfaceClass() default void.class;

    /** Service version; consumers must ask for the same one. */
    String version() default "";

    /** Service group; consumers must ask for the same one. */
    String group() default "";

    /**
     * Default deadline for consumers that set no timeout, published in the registry record: milliseconds or
     * 500ms/3s. Default: none (such consumers use 3 s).
     */
    String timeout() default "";

    /** Relative weight for weighted load balancing. Default 100. */
    String weight() default "";

    /**
     * Warm-up: milliseconds or 30s/10m. Consumers ramp this provider's weight up from a small share over this
     * long after it starts. Default: none (full weight at once).
     */
    String warmup() default "";

    /** Serialization names accepted; empty means the protocol's serialization only. */
    String[] serialization() default {};

    /** Most concurrent invocations of each method on this provider, answered "busy" beyond; "" or "0": no limit. */
    String executes() default "";

    /**
     * Where the provider runs this service's methods, as {@code dispatch} of {@code <rpc:service>}: "auto"
     * (direct for @NonBlocking and CompletableFuture methods), "pool" or "direct"; "": property
     * rpc.service.dispatch, else auto. See {@link io.kestrel.rpc.api.config.Dispatch}.
     */
    String dispatch() default "";

    /** Interceptors for this service only (one instance each, public no-arg constructor); interceptor beans apply to all. */
    Class<? extends io.kestrel.rpc.api.interceptor.ServerInterceptor>[] interceptors() default {};

    /**
     * Callers admitted (token principal, certificate subject or SAN; "*" any authenticated caller), as
     * {@code allowed-principals} of {@code <rpc:service>}. Empty (with {@link #allowedRoles()}): everyone.
     */
    String[] allowedPrincipals() default {};

    /** Roles admitted, as {@code allowed-roles} of {@code <rpc:service>}. */
    String[] allowedRoles() default {};

    /**
     * Whether the service answers generic calls ({@code $invoke}) and metadata requests ({@code $metadata}), as
     * {@code generic} of {@code <rpc:service>}: "true" or "false"; "": property rpc.service.generic, else true.
     */
    String generic() default "";
}
