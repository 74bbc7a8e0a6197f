package io.kestrel.rpc.api;

/** No response arrived within the call's deadline. The message names service, method, timeout, request id and address. */
public class RpcTimeoutException extends RpcException {
    private static final long serialVersionUID = 1L;

    public RpcTimeoutException(String message) {
        super(message);
    }

    public RpcTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
