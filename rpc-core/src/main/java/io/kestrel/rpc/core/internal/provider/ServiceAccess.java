package io.kestrel.rpc.core.internal.provider;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.RefusedException;
import java.util.Set;

/**
 * Who may call one exported service: its allowed principals and roles ({@link ServiceConfig#allowedPrincipals()}).
 * The transport applies it to every call on the I/O thread, before the arguments are decoded
 * ({@link io.kestrel.rpc.transport.spi.ServerMethod#admit}), and answers a refusal with its status; the consumer
 * raises {@link io.kestrel.rpc.api.UnauthenticatedException} or {@link io.kestrel.rpc.api.PermissionDeniedException}
 * for it. Immutable.
 */
final class ServiceAccess {
    private static final ServiceAccess OPEN = new ServiceAccess(null, Set.of(), Set.of());

    private final ServiceKey service;
    private final Set<String> principals;
    private final Set<String> roles;

    private ServiceAccess(ServiceKey service, Set<String> principals, Set<String> roles) {
        this.service = service;
        this.principals = principals;
        this.roles = roles;
    }

    static ServiceAccess of(ServiceConfig<?> config) {
        return config.restrictsCallers()
                ? new ServiceAccess(config.key(), config.allowedPrincipals(), config.allowedRoles()) : OPEN;
    }

    /** Whether {@code caller} (null: anonymous) may call the service: what the handshake tells it depends on this. */
    boolean admits(CallerIdentity caller) {
        return service == null || caller != null && named(caller);
    }

    /**
     * @throws RefusedException {@link Status#UNAUTHENTICATED} when the service is restricted and the caller
     *     anonymous, {@link Status#PERMISSION_DENIED} when the caller matches no allowed principal or role
     */
    void admit(CallerIdentity caller, String anonymousBecause) {
        if (service == null) {
            return;
        }
        if (caller == null) {
            throw new RefusedException(Status.UNAUTHENTICATED, "service " + service + " admits only authenticated"
                    + " callers and this consumer is anonymous: " + anonymousBecause + ". Give the consumer a token"
                    + " (token=...) or a client certificate (tls-cert, tls-key) the provider accepts", null);
        }
        if (named(caller)) {
            return;
        }
        // the allowed lists are not disclosed to the caller
        throw new RefusedException(Status.PERMISSION_DENIED, "caller " + caller + " may not call service " + service
                + ": it is not among the service's allowed principals or roles. Have it added to allowed-principals"
                + " or allowed-roles on the provider's service, or call with another identity", null);
    }

    /** Whether the caller matches an allowed principal or role. */
    private boolean named(CallerIdentity caller) {
        for (String p : principals) {
            if (caller.isNamed(p)) {
                return true;
            }
        }
        for (String r : roles) {
            if (caller.roles().contains(r)) {
                return true;
            }
        }
        return false;
    }
}
