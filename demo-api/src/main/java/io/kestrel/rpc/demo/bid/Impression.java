package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Objects;

/** One ad slot offered in a bid request, with its floor price. Mutable bean. */
public class Impression implements Serializable {
    private static final long serialVersionUID = 1L;

    private String id;
    private Banner banner;
    private String tagId;
    private BigDecimal bidFloor;
    private String bidFloorCurrency;
    private boolean secure;
    private boolean interstitial;
    /** Deal id of a private marketplace, usually null. */
    private String dealId;

    public Impression() {
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public Banner getBanner() {
        return banner;
    }

    public void setBanner(Banner banner) {
        this.banner = banner;
    }

    public String getTagId() {
        return tagId;
    }

    public void setTagId(String tagId) {
        this.tagId = tagId;
    }

    public BigDecimal getBidFloor() {
        return bidFloor;
    }

    public void setBidFloor(BigDecimal bidFloor) {
        this.bidFloor = bidFloor;
    }

    public String getBidFloorCurrency() {
        return bidFloorCurrency;
    }

    public void setBidFloorCurrency(String bidFloorCurrency) {
        this.bidFloorCurrency = bidFloorCurrency;
    }

    public boolean isSecure() {
        return secure;
    }

    public void setSecure(boolean secure) {
        this.secure = secure;
    }

    public boolean isInterstitial() {
        return interstitial;
    }

    public void setInterstitial(boolean interstitial) {
        this.interstitial = interstitial;
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
        if (!(o instanceof Impression i)) {
            return false;
        }
        return secure == i.secure && interstitial == i.interstitial && Objects.equals(id, i.id)
                && Objects.equals(banner, i.banner) && Objects.equals(tagId, i.tagId)
                && Objects.equals(bidFloor, i.bidFloor) && Objects.equals(bidFloorCurrency, i.bidFloorCurrency)
                && Objects.equals(dealId, i.dealId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, banner, tagId, bidFloor, bidFloorCurrency, secure, interstitial, dealId);
    }

    @Override
    public String toString() {
        return "Impression{id=" + id + ", banner=" + banner + ", tagId=" + tagId + ", bidFloor=" + bidFloor + " "
                + bidFloorCurrency + ", secure=" + secure + ", interstitial=" + interstitial + ", dealId=" + dealId + "}";
    }
}
