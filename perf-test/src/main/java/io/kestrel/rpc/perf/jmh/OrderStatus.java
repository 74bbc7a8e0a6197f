package io.kestrel.rpc.perf.jmh;

/** State of an {@link Order}. */
public enum OrderStatus {
    NEW,
    PAID,
    SHIPPED,
    CANCELLED
}
