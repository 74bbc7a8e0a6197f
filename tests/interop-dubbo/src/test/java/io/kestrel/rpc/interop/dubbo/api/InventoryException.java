package io.kestrel.rpc.interop.dubbo.api;

/** An unchecked exception from the API jar, not declared by any method. */
public class InventoryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InventoryException(String message) {
        super(message);
    }
}
