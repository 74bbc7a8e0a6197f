package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.Objects;

/** The owner of a site or app. Mutable bean. */
public class Publisher implements Serializable {
    private static final long serialVersionUID = 1L;

    private String id;
    private String name;
    private String domain;

    public Publisher() {
    }

    public Publisher(String id, String name, String domain) {
        this.id = id;
        this.name = name;
        this.domain = domain;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getDomain() {
        return domain;
    }

    public void setDomain(String domain) {
        this.domain = domain;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Publisher p && Objects.equals(id, p.id) && Objects.equals(name, p.name)
                && Objects.equals(domain, p.domain);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, domain);
    }

    @Override
    public String toString() {
        return "Publisher{id=" + id + ", name=" + name + ", domain=" + domain + "}";
    }
}
