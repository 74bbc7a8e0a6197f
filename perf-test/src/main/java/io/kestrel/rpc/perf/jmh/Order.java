package io.kestrel.rpc.perf.jmh;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The classic business object: an order with a customer, a status and N lines. Mutable bean. */
public class Order implements Serializable {
    private static final long serialVersionUID = 1L;

    private long id;
    private String customerId;
    private String customerEmail;
    private OrderStatus status;
    private long createdAtMillis;
    private String currency;
    private BigDecimal total;
    private List<OrderLine> lines;

    public Order() {
    }

    /** A deterministic order with {@code lineCount} lines and a matching total. */
    public static Order sample(int lineCount) {
        Order o = new Order();
        o.id = 700_000_123L;
        o.customerId = "cust-48213";
        o.customerEmail = "ada.lovelace@example.com";
        o.status = OrderStatus.PAID;
        o.createdAtMillis = 1_714_564_800_000L;
        o.currency = "EUR";
        List<OrderLine> lines = new ArrayList<>(lineCount);
        BigDecimal total = BigDecimal.ZERO;
        for (int i = 0; i < lineCount; i++) {
            BigDecimal price = BigDecimal.valueOf(199 + (i * 37L) % 5000, 2);
            int quantity = 1 + i % 4;
            lines.add(new OrderLine(10_000L + i, "SKU-" + (10_000 + i), "Product number " + i, quantity, price));
            total = total.add(price.multiply(BigDecimal.valueOf(quantity)));
        }
        o.lines = lines;
        o.total = total;
        return o;
    }

    public long getId() {
        return id;
    }

    public void setId(long id) {
        this.id = id;
    }

    public String getCustomerId() {
        return customerId;
    }

    public void setCustomerId(String customerId) {
        this.customerId = customerId;
    }

    public String getCustomerEmail() {
        return customerEmail;
    }

    public void setCustomerEmail(String customerEmail) {
        this.customerEmail = customerEmail;
    }

    public OrderStatus getStatus() {
        return status;
    }

    public void setStatus(OrderStatus status) {
        this.status = status;
    }

    public long getCreatedAtMillis() {
        return createdAtMillis;
    }

    public void setCreatedAtMillis(long createdAtMillis) {
        this.createdAtMillis = createdAtMillis;
    }

    public String getCurrency() {
        return currency;
    }

    public void setCurrency(String currency) {
        this.currency = currency;
    }

    public BigDecimal getTotal() {
        return total;
    }

    public void setTotal(BigDecimal total) {
        this.total = total;
    }

    public List<OrderLine> getLines() {
        return lines;
    }

    public void setLines(List<OrderLine> lines) {
        this.lines = lines;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Order x)) {
            return false;
        }
        return id == x.id && createdAtMillis == x.createdAtMillis && Objects.equals(customerId, x.customerId)
                && Objects.equals(customerEmail, x.customerEmail) && status == x.status
                && Objects.equals(currency, x.currency) && Objects.equals(total, x.total)
                && Objects.equals(lines, x.lines);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, customerId, customerEmail, status, createdAtMillis, currency, total, lines);
    }

    @Override
    public String toString() {
        return "Order{id=" + id + ", customer=" + customerId + ", status=" + status + ", total=" + total + " "
                + currency + ", lines=" + (lines == null ? 0 : lines.size()) + "}";
    }
}
