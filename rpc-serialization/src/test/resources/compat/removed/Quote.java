package io.kestrel.rpc.compat.dto;

/** Version 2r: v1 without label (a String followed by another String field). */
public class Quote implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public String id;
    public String note;
    public int qty;
}
