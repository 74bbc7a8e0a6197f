package io.kestrel.rpc.perf.jmh;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Objects;

/** One line of an {@link Order}. Mutable bean. */
public class OrderLine implements Serializable {
    private static final long serialVersionUID = 1L;

    private long productId;
    private String sku;
    private String name;
    private int quantity;
    private BigDecimal unitPrice;

    public OrderLine() {
    }

    public OrderLine(long productId, String sku, String name, int quantity, BigDecimal unitPrice) {
        this.productId = productId;
        this.sku = sku;
        this.name = name;
        this.quantity = quantity;
        this.unitPrice = unitPrice;
    }

    public long getProductId() {
        return productId;
    }

    public void setProductId(long productId) {
        this.productId = productId;
    }

    public String getSku() {
        return sku;
    }

    public void setSku(String sku) {
        this.sku = sku;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public int getQuantity() {
        return quantity;
    }

    public void setQuantity(int quantity) {
        this.quantity = quantity;
    }

    public BigDecimal getUnitPrice() {
        return unitPrice;
    }

    public void setUnitPrice(BigDecimal unitPrice) {
        this.unitPrice = unitPrice;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OrderLine l && productId == l.productId && quantity == l.quantity
                && Objects.equals(sku, l.sku) && Objects.equals(name, l.name) && Objects.equals(unitPrice, l.unitPrice);
    }

    @Override
    public int hashCode() {
        return Objects.hash(productId, sku, name, quantity, unitPrice);
    }

    @Override
    public String toString() {
        return "OrderLine{" + productId + ", " + sku + ", " + name + ", " + quantity + " x " + unitPrice + "}";
    }
}
