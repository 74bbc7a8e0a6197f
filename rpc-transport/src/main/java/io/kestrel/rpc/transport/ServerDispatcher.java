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
}
