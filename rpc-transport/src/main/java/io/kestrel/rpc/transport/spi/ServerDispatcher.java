package io.kestrel.rpc.transport.spi;

import io.kestrel.rpc.api.security.CallerIdentity;
import java.util.Map;
import java.util.Set;

/** Finds the method a request names. Implemented by the invocation layer; thread-safe. */
public interface ServerDispatcher {
    /**
     * Resolves a descriptor such as {@code group/com.example.UserService:1.0#get(long)}.
     *
     * @throws io.kestrel.rpc.api.ServiceNotFoundException naming the service or method and what is
     *     exported instead
     */
    ServerMethod resolve(String descriptor);

    /**
     * The handshake: what the services {@code asked} (service key text) ask their consumers to agree on
     * (key to attributes), as told to {@code caller} (null: anonymous). Tell only services the caller may
     * call; with nothing asked (the first heartbeat of a consumer that names no service), tell nothing
     * unless the provider discloses its services. Asked on the event loop, for the first heartbeat of a
     * connection and each heartbeat carrying a query, after the credential and the TLS handshake were
     * checked. Default: nothing.
     */
    default Map<String, Map<String, String>> handshake(Set<String> asked, CallerIdentity caller) {
        return Map.of();
    }

    /**
     * A method matching {@code descriptor} (written without a group) in any group of its service, or null: the
     * dubbo protocol names the group only after the arguments, so its provider reads them with the parameter
     * types and serializer of this method and then resolves the exact one. Default: null.
     */
    default ServerMethod resolveInAnyGroup(String descriptor) {
        return null;
    }
}
