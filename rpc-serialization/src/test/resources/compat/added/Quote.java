package io.kestrel.rpc.compat.dto;

/** Version 2a: v1 plus currency (sorts first) and priceMicros (sorts between note and qty). */
public class Quote implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public String id;
    public String label;
    public String note;
    public int qty;
    public String currency;
    public long priceMicros;
}
