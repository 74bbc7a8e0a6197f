package io.kestrel.rpc.core.internal.shared;

/**
 * Where the framework's own interceptors sit in a chain ({@code order()}, ascending), on both sides: the one
 * place these positions are written.
 */
final class InterceptorOrder {
    /** The access log is outermost: it sees every call, refusals by the limits included. */
    public static final int ACCESS_LOG = -2000;
    /** The limits run before user interceptors of order 0, so a refused call costs them nothing. */
    public static final int LIMIT = -1000;

    private InterceptorOrder() {
    }
}
