package io.kestrel.rpc.api;

/** No provider is available for a service: none registered, all filtered out, or all failed. The message names the service, version/group, registry and the providers seen. */
public class NoProviderException extends RpcException {
    private static final long serialVersionUID = 1L;

    public NoProviderException(String message) {
        super(message);
    }

    public NoProviderException(String message, Throwable cause) {
        super(message, cause);
    }
}
