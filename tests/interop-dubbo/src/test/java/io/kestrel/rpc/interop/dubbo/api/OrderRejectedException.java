package io.kestrel.rpc.interop.dubbo.api;

/** A checked exception the API declares. */
public class OrderRejectedException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String reason;

    public OrderRejectedException(String reason) {
        super("order rejected: " + reason);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
