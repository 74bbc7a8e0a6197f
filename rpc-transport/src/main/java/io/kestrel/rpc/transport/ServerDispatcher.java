package io.kestrel.rpc.transport;

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
     * What each exported service asks consumers to agree on (service key text to attributes), sent in
     * the answer to the first heartbeat of every connection (see the wire format's handshake). Asked
     * once per connection. Default: nothing.
     */
    default java.util.Map<String, java.util.Map<String, String>> handshake() {
        return java.util.Map.of();
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
