package io.kestrel.rpc.api.interceptor;

import io.kestrel.rpc.api.RpcException;

/**
 * An interceptor failed instead of returning a future: it threw (the cause) or returned null. The
 * message names the interceptor and the call.
 */
public class InterceptorException extends RpcException {
    private static final long serialVersionUID = 1L;

    public InterceptorException(String message) {
        super(message);
    }

    public InterceptorException(String message, Throwable cause) {
        super(message, cause);
    }
}
