package io.kestrel.rpc.api;

/** The provider does not export the requested service, version/group or method, or not with the frame's serialization. */
public class ServiceNotFoundException extends RpcException {
    private static final long serialVersionUID = 1L;

    public ServiceNotFoundException(String message) {
        super(message);
    }

    public ServiceNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
