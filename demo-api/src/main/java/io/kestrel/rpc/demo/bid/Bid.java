package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/** One bid on one impression: price, creative markup and metadata. Mutable bean. */
public class Bid implements Serializable {
    private static final long serialVersionUID = 1L;

    private String id;
    private String impressionId;
    private BigDecimal price;
    private String adId;
    private String winNoticeUrl;
    /** The creative markup (HTML snippet) shown when the bid wins. */
    private String adMarkup;
    private List<String> advertiserDomains;
    private String creativeId;
    private int width;
    private int height;
    private List<String> categories;
    /** Deal id when bidding in a private marketplace, usually null. */
    private String dealId;

    public Bid() {
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getImpressionId() {
        return impressionId;
    }

    public void setImpressionId(String impressionId) {
        this.impressionId = impressionId;
    }

    public BigDecimal getPrice() {
        return price;
    }

    public void setPrice(BigDecimal price) {
        this.price = price;
    }

    public String getAdId() {
        return adId;
    }

    public void setAdId(String adId) {
        this.adId = adId;
    }

    public String getWinNoticeUrl() {
        return winNoticeUrl;
    }

    public void setWinNoticeUrl(String winNoticeUrl) {
        this.winNoticeUrl = winNoticeUrl;
    }

    public String getAdMarkup() {
        return adMarkup;
    }

    public void setAdMarkup(String adMarkup) {
        this.adMarkup = adMarkup;
    }

    public List<String> getAdvertiserDomains() {
        return advertiserDomains;
    }

    public void setAdvertiserDomains(List<String> advertiserDomains) {
        this.advertiserDomains = advertiserDomains;
    }

    public String getCreativeId() {
        return creativeId;
    }

    public void setCreativeId(String creativeId) {
        this.creativeId = creativeId;
    }

    public int getWidth() {
        return width;
    }

    public void setWidth(int width) {
        this.width = width;
    }

    public int getHeight() {
        return height;
    }

    public void setHeight(int height) {
        this.height = height;
    }

    public List<String> getCategories() {
        return categories;
    }

    public void setCategories(List<String> categories) {
        this.categories = categories;
    }

    public String getDealId() {
        return dealId;
    }

    public void setDealId(String dealId) {
        this.dealId = dealId;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Bid b)) {
            return false;
        }
        return width == b.width && height == b.height && Objects.equals(id, b.id)
                && Objects.equals(impressionId, b.impressionId) && Objects.equals(price, b.price)
                && Objects.equals(adId, b.adId) && Objects.equals(winNoticeUrl, b.winNoticeUrl)
                && Objects.equals(adMarkup, b.adMarkup) && Objects.equals(advertiserDomains, b.advertiserDomains)
                && Objects.equals(creativeId, b.creativeId) && Objects.equals(categories, b.categories)
                && Objects.equals(dealId, b.dealId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, impressionId, price, adId, winNoticeUrl, adMarkup, advertiserDomains, creativeId,
                width, height, categories, dealId);
    }

    @Override
    public String toString() {
        return "Bid{id=" + id + ", impressionId=" + impressionId + ", price=" + price + ", adId=" + adId
                + ", creativeId=" + creativeId + ", size=" + width + "x" + height + ", advertiserDomains="
                + advertiserDomains + ", categories=" + categories + ", dealId=" + dealId + ", winNoticeUrl="
                + winNoticeUrl + ", adMarkup=" + adMarkup + "}";
    }
}
