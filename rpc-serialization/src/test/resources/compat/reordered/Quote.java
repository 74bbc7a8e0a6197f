package io.kestrel.rpc.compat.dto;

/** Version 2o: the fields of v1, declared in another order. */
public class Quote implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public int qty;
    public String note;
    public String label;
    public String id;
}
