package io.kestrel.rpc.api;

/**
 * Base of every failure the framework reports. Unchecked: callers catch the subtype that means
 * what they care about ({@link RpcTimeoutException}, {@link NoProviderException}, ...), never a code.
 */
public class RpcException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RpcException(String message) {
        super(message);
    }

    public RpcException(String message, Throwable cause) {
        super(message, cause);
    }
}
