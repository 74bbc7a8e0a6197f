package io.kestrel.rpc.interop.dubbo.api;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

public class Order implements Serializable {
    private static final long serialVersionUID = 1L;
    private long id;
    private Customer customer;
    private List<Line> lines = new ArrayList<>();
    private String status;

    public Order() {
    }

    public Order(long id, Customer customer, List<Line> lines) {
        this.id = id;
        this.customer = customer;
        this.lines = new ArrayList<>(lines);
    }

    public long getId() {
        return id;
    }

    public Customer getCustomer() {
        return customer;
    }

    public List<Line> getLines() {
        return lines;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public BigDecimal total() {
        return lines.stream().map(l -> l.price().multiply(BigDecimal.valueOf(l.quantity())))
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Order other && id == other.id && Objects.equals(customer, other.customer)
                && Objects.equals(lines, other.lines) && Objects.equals(status, other.status);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, customer, lines, status);
    }

    @Override
    public String toString() {
        return "Order{" + id + ", " + customer + ", " + lines + ", " + status + "}";
    }

    public static class Customer implements Serializable {
        private static final long serialVersionUID = 1L;
        private String name;
        private String email;

        public Customer() {
        }

        public Customer(String name, String email) {
            this.name = name;
            this.email = email;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Customer c && Objects.equals(name, c.name) && Objects.equals(email, c.email);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, email);
        }

        @Override
        public String toString() {
            return name + " <" + email + ">";
        }
    }

    public static class Line implements Serializable {
        private static final long serialVersionUID = 1L;
        private String sku;
        private int quantity;
        private BigDecimal price;

        public Line() {
        }

        public Line(String sku, int quantity, BigDecimal price) {
            this.sku = sku;
            this.quantity = quantity;
            this.price = price;
        }

        public int quantity() {
            return quantity;
        }

        public BigDecimal price() {
            return price;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Line l && Objects.equals(sku, l.sku) && quantity == l.quantity
                    && price.compareTo(l.price) == 0;
        }

        @Override
        public int hashCode() {
            return Objects.hash(sku, quantity);
        }

        @Override
        public String toString() {
            return quantity + "x" + sku + "@" + price;
        }
    }
}
