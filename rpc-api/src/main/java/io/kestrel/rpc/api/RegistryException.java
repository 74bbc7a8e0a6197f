package io.kestrel.rpc.api;

/** The registry could not be reached or refused an operation (ZooKeeper unreachable, registration lost). */
public class RegistryException extends RpcException {
    private static final long serialVersionUID = 1L;

    public RegistryException(String message) {
        super(message);
    }

    public RegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}
