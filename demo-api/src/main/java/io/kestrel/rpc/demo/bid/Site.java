package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** The website an ad is shown on (a request carries a site or an {@link App}). Mutable bean. */
public class Site implements Serializable {
    private static final long serialVersionUID = 1L;

    private String id;
    private String name;
    private String domain;
    private String page;
    private String referrer;
    private List<String> categories;
    private Publisher publisher;
    private boolean mobileOptimized;

    public Site() {
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

    public String getPage() {
        return page;
    }

    public void setPage(String page) {
        this.page = page;
    }

    public String getReferrer() {
        return referrer;
    }

    public void setReferrer(String referrer) {
        this.referrer = referrer;
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

    public boolean isMobileOptimized() {
        return mobileOptimized;
    }

    public void setMobileOptimized(boolean mobileOptimized) {
        this.mobileOptimized = mobileOptimized;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Site s)) {
            return false;
        }
        return mobileOptimized == s.mobileOptimized && Objects.equals(id, s.id) && Objects.equals(name, s.name)
                && Objects.equals(domain, s.domain) && Objects.equals(page, s.page)
                && Objects.equals(referrer, s.referrer) && Objects.equals(categories, s.categories)
                && Objects.equals(publisher, s.publisher);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, domain, page, referrer, categories, publisher, mobileOptimized);
    }

    @Override
    public String toString() {
        return "Site{id=" + id + ", name=" + name + ", domain=" + domain + ", page=" + page + ", referrer=" + referrer
                + ", categories=" + categories + ", publisher=" + publisher + ", mobileOptimized=" + mobileOptimized + "}";
    }
}
