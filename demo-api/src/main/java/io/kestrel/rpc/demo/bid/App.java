package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** The mobile app an ad is shown in (a request carries a {@link Site} or an app). Mutable bean. */
public class App implements Serializable {
    private static final long serialVersionUID = 1L;

    private String id;
    private String name;
    private String bundle;
    private String storeUrl;
    private String version;
    private List<String> categories;
    private Publisher publisher;
    private boolean paid;

    public App() {
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

    public String getBundle() {
        return bundle;
    }

    public void setBundle(String bundle) {
        this.bundle = bundle;
    }

    public String getStoreUrl() {
        return storeUrl;
    }

    public void setStoreUrl(String storeUrl) {
        this.storeUrl = storeUrl;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }

    public List<String> getCategories() {
        return categories;
    }

    public void setCategories(List<String> categories) {
        this.categories = categories;
    }

    public Publisher getPublisher() {
        return publisher;
    }

    public void setPublisher(Publisher publisher) {
        this.publisher = publisher;
    }

    public boolean isPaid() {
        return paid;
    }

    public void setPaid(boolean paid) {
        this.paid = paid;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof App a)) {
            return false;
        }
        return paid == a.paid && Objects.equals(id, a.id) && Objects.equals(name, a.name)
                && Objects.equals(bundle, a.bundle) && Objects.equals(storeUrl, a.storeUrl)
                && Objects.equals(version, a.version) && Objects.equals(categories, a.categories)
                && Objects.equals(publisher, a.publisher);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, bundle, storeUrl, version, categories, publisher, paid);
    }

    @Override
    public String toString() {
        return "App{id=" + id + ", name=" + name + ", bundle=" + bundle + ", storeUrl=" + storeUrl + ", version="
                + version + ", categories=" + categories + ", publisher=" + publisher + ", paid=" + paid + "}";
    }
}
