package io.kestrel.rpc.api.config;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One exported service: interface, implementation, version/group, weight. Immutable; build with
 * {@link #builder(Class, Object)}. XML: {@code <rpc:service interface=".." ref=".." version=".."/>}.
 *
 * @param <T> the service interface
 */
public final class ServiceConfig<T> {
    private final Class<T> interfaceClass;
    private final T ref;
    private final String version;
    private final String group;
    private final Duration timeout;
    private final int weight;
    private final Duration warmup;
    private final Set<String> serializations;
    private final List<ServerInterceptor> interceptors;
    private final int executes;
    private final Dispatch dispatch;
    private final Set<String> allowedPrincipals;
    private final Set<String> allowedRoles;
    private final boolean generic;

    private ServiceConfig(Builder<T> b) {
        this.interfaceClass = b.interfaceClass;
        this.ref = b.ref;
        this.version = b.version;
        this.group = b.group;
        this.timeout = b.timeout;
        this.weight = b.weight;
        this.serializations = Collections.unmodifiableSet(new LinkedHashSet<>(b.serializations));
        this.warmup = b.warmup;
        this.interceptors = List.copyOf(b.interceptors);
        this.executes = b.executes;
        this.dispatch = b.dispatch;
        this.allowedPrincipals = Set.copyOf(b.allowedPrincipals);
        this.allowedRoles = Set.copyOf(b.allowedRoles);
        this.generic = b.generic;
    }

    public static <T> Builder<T> builder(Class<T> interfaceClass, T ref) {
        return new Builder<>(interfaceClass, ref);
    }

    public Class<T> interfaceClass() {
        return interfaceClass;
    }

    /** The implementation that serves calls. */
    public T ref() {
        return ref;
    }

    public String version() {
        return version;
    }

    public String group() {
        return group;
    }

    public ServiceKey key() {
        return new ServiceKey(interfaceClass.getName(), version, group);
    }

    /**
     * The service's default call deadline for consumers ({@code timeout}): published in the provider's
     * registry record, it is the deadline of calls from references that set no timeout of their own. A
     * reference's own timeout wins; references in direct mode ({@code url}) never see it. Empty (the
     * default) publishes nothing, and such consumers use {@link ReferenceConfig#DEFAULT_TIMEOUT}.
     */
    public Optional<Duration> timeout() {
        return Optional.ofNullable(timeout);
    }

    /** Relative weight for weighted load balancing ({@code weight}). Default 100. */
    public int weight() {
        return weight;
    }

    /**
     * The warm-up ({@code warmup}): published in the registry record with the provider's start time, it makes
     * consumers ramp this provider's weight up from a small share to {@link #weight()} over this long after
     * it starts (weight x uptime / warmup, at least 1), so a cold JVM is not handed its full share at once.
     * Applies to the {@code random}, {@code roundrobin} and {@code leastactive} load balancers. Empty (the
     * default): full weight at once.
     */
    public Optional<Duration> warmup() {
        return Optional.ofNullable(warmup);
    }

    /**
     * Serialization names the service accepts ({@code serialization} on {@code <rpc:service>}); empty
     * means the default: the protocol's serialization only, so a caller cannot pick the decoder
     * (list more during a migration). Each enforces the allowlist and its decode limits. In the order
     * listed: when the protocol's serialization is not among them, the first is the one the provider
     * publishes as preferred, which references that set none adopt.
     */
    public Set<String> serializations() {
        return serializations;
    }

    /**
     * This service's own interceptors, run after the runtime's ones of the same order (see
     * {@link ServerInterceptor}). Default none.
     */
    public List<ServerInterceptor> interceptors() {
        return interceptors;
    }

    /**
     * Most invocations of one method of this service running at once on this provider
     * ({@code executes}); a call beyond it is answered "server busy" without running, so failover may
     * send it to another provider. 0 (the default): no limit besides the protocol's pool.
     */
    public int executes() {
        return executes;
    }

    /**
     * Where the provider runs this service's methods ({@code dispatch}): {@link Dispatch#AUTO} (the
     * default) runs {@link io.kestrel.rpc.api.NonBlocking} and {@code CompletableFuture} methods on the
     * I/O thread and the others on the business executor; see {@link Dispatch}.
     */
    public Dispatch dispatch() {
        return dispatch;
    }

    /**
     * Callers allowed to call this service ({@code allowed-principals}): a caller's name, its client
     * certificate's subject or one of the certificate's alternative names; {@code "*"} admits any
     * authenticated caller. With {@link #allowedRoles()}, a caller needs to match either list. Both
     * empty (the default): every caller, anonymous ones too. When either is set, an anonymous caller
     * gets {@link io.kestrel.rpc.api.UnauthenticatedException} and a caller matching neither
     * {@link io.kestrel.rpc.api.PermissionDeniedException}, before its arguments are decoded.
     */
    public Set<String> allowedPrincipals() {
        return allowedPrincipals;
    }

    /** Roles allowed to call this service ({@code allowed-roles}); see {@link #allowedPrincipals()}. */
    public Set<String> allowedRoles() {
        return allowedRoles;
    }

    /**
     * Whether the service answers generic calls and metadata requests ({@code generic}): its reserved
     * {@code $invoke} and {@code $metadata} methods, which let a caller without the interface class call any of
     * its methods with plain trees and read its signatures. They admit the same callers as the service's own
     * methods ({@link #allowedPrincipals()}, {@link #allowedRoles()}). True (the default); false answers both
     * "not found" (gateways, the console and {@code runtime.metadata(...)} then cannot reach this service).
     */
    public boolean generic() {
        return generic;
    }

    /** Whether only some callers may call this service (see {@link #allowedPrincipals()}). */
    public boolean restrictsCallers() {
        return !allowedPrincipals.isEmpty() || !allowedRoles.isEmpty();
    }

    @Override
    public String toString() {
        return "ServiceConfig{" + key() + ", ref=" + ref.getClass().getName() + ", weight=" + weight
                + (timeout != null ? ", timeout=" + timeout.toMillis() + "ms" : "")
                + (warmup != null ? ", warmup=" + warmup.toMillis() + "ms" : "")
                + (dispatch != Dispatch.AUTO ? ", dispatch=" + dispatch.value() : "")
                + (allowedPrincipals.isEmpty() ? "" : ", allowed-principals=" + allowedPrincipals)
                + (allowedRoles.isEmpty() ? "" : ", allowed-roles=" + allowedRoles)
                + (generic ? "" : ", generic=false") + "}";
    }

    public static final class Builder<T> {
        private final Class<T> interfaceClass;
        private final T ref;
        private String version = "";
        private String group = "";
        private Duration timeout;
        private int weight = 100;
        private Duration warmup;
        private final Set<String> serializations = new LinkedHashSet<>();
        private final List<ServerInterceptor> interceptors = new ArrayList<>();
        private int executes;
        private Dispatch dispatch = Dispatch.AUTO;
        private final Set<String> allowedPrincipals = new LinkedHashSet<>();
        private final Set<String> allowedRoles = new LinkedHashSet<>();
        private boolean generic = true;

        private Builder(Class<T> interfaceClass, T ref) {
            Objects.requireNonNull(interfaceClass, "service interface");
            if (!interfaceClass.isInterface()) {
                throw new IllegalArgumentException("service interface " + interfaceClass.getName()
                        + " is a class; export an interface");
            }
            Objects.requireNonNull(ref, "implementation (ref) of " + interfaceClass.getName());
            if (!interfaceClass.isInstance(ref)) {
                throw new IllegalArgumentException("implementation " + ref.getClass().getName()
                        + " does not implement " + interfaceClass.getName());
            }
            this.interfaceClass = interfaceClass;
            this.ref = ref;
        }

        public Builder<T> version(String version) {
            this.version = Checks.orEmpty(version);
            return this;
        }

        public Builder<T> group(String group) {
            this.group = Checks.orEmpty(group);
            return this;
        }

        /** See {@link ServiceConfig#timeout()}; at least 1 ms. */
        public Builder<T> timeout(Duration timeout) {
            this.timeout = Checks.positiveMillis("service timeout", timeout);
            return this;
        }

        public Builder<T> weight(int weight) {
            this.weight = Checks.atLeast("service weight", weight, 0);
            return this;
        }

        /** See {@link ServiceConfig#warmup()}; at least 1 ms. */
        public Builder<T> warmup(Duration warmup) {
            this.warmup = Checks.positiveMillis("service warmup", warmup);
            return this;
        }

        public Builder<T> serialization(String name) {
            this.serializations.add(Checks.nonBlank("service serialization", name).toLowerCase(java.util.Locale.ROOT));
            return this;
        }

        /** Adds an interceptor for this service's invocations; see {@link ServiceConfig#interceptors()}. */
        public Builder<T> interceptor(ServerInterceptor interceptor) {
            this.interceptors.add(Objects.requireNonNull(interceptor, "service interceptor"));
            return this;
        }

        /** See {@link ServiceConfig#executes()}; 0 for no limit. */
        public Builder<T> executes(int executes) {
            this.executes = Checks.atLeast("service executes", executes, 0);
            return this;
        }

        /** See {@link ServiceConfig#dispatch()}; default {@link Dispatch#AUTO}. */
        public Builder<T> dispatch(Dispatch dispatch) {
            this.dispatch = Objects.requireNonNull(dispatch, "service dispatch");
            return this;
        }

        /** Admits this principal; see {@link ServiceConfig#allowedPrincipals()}. */
        public Builder<T> allowPrincipal(String principal) {
            this.allowedPrincipals.add(Checks.nonBlank("service allowed-principals entry", principal));
            return this;
        }

        /** Admits callers with this role; see {@link ServiceConfig#allowedRoles()}. */
        public Builder<T> allowRole(String role) {
            this.allowedRoles.add(Checks.nonBlank("service allowed-roles entry", role));
            return this;
        }

        /** See {@link ServiceConfig#generic()}; default true. */
        public Builder<T> generic(boolean generic) {
            this.generic = generic;
            return this;
        }

        public ServiceConfig<T> build() {
            return new ServiceConfig<>(this);
        }
    }
}
