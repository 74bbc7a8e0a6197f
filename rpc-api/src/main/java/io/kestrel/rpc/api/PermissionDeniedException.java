package io.kestrel.rpc.api;

/**
 * The provider knows who is calling and refused the call: the caller is not among the service's
 * allowed principals or roles. The call did not run; failover never retries it. The message names
 * the caller and the service; change {@code allowed-principals} / {@code allowed-roles} on the
 * service, or call with another identity.
 */
public class PermissionDeniedException extends RpcException {
    private static final long serialVersionUID = 1L;

    public PermissionDeniedException(String message) {
        super(message);
    }
}
