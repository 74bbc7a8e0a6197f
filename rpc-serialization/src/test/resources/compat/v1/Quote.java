package io.kestrel.rpc.compat.dto;

/** Version 1 of the DTO: fields id, label, note, qty (alphabetical order, as kryo's field serializer writes them). */
public class Quote implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public String id;
    public String label;
    public String note;
    public int qty;
}
