package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An ad exchange's request for bids on one or more impressions, modelled loosely on OpenRTB 2.x.
 * Carries either a {@link Site} or an {@link App} (the other is null). Mutable bean; not thread-safe.
 */
public class BidRequest implements Serializable {
    private static final long serialVersionUID = 1L;

    private String id;
    private List<Impression> impressions;
    private Site site;
    private App app;
    private Device device;
    private Visitor visitor;
    private AuctionType auctionType;
    private int maxResponseMillis;
    private boolean test;
    private List<String> currencies;
    private List<String> blockedCategories;
    private List<String> blockedAdvertisers;
    private Map<String, String> ext;
    /** When the exchange created the request, epoch milliseconds. */
    private long createdAtMillis;

    public BidRequest() {
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public List<Impression> getImpressions() {
        return impressions;
    }

    public void setImpressions(List<Impression> impressions) {
        this.impressions = impressions;
    }

    public Site getSite() {
        return site;
    }

    public void setSite(Site site) {
        this.site = site;
    }

    public App getApp() {
        return app;
    }

    public void setApp(App app) {
        this.app = app;
    }

    public Device getDevice() {
        return device;
    }

    public void setDevice(Device device) {
        this.device = device;
    }

    public Visitor getVisitor() {
        return visitor;
    }

    public void setVisitor(Visitor visitor) {
        this.visitor = visitor;
    }

    public AuctionType getAuctionType() {
        return auctionType;
    }

    public void setAuctionType(AuctionType auctionType) {
        this.auctionType = auctionType;
    }

    public int getMaxResponseMillis() {
        return maxResponseMillis;
    }

    public void setMaxResponseMillis(int maxResponseMillis) {
        this.maxResponseMillis = maxResponseMillis;
    }

    public boolean isTest() {
        return test;
    }

    public void setTest(boolean test) {
        this.test = test;
    }

    public List<String> getCurrencies() {
        return currencies;
    }

    public void setCurrencies(List<String> currencies) {
        this.currencies = currencies;
    }

    public List<String> getBlockedCategories() {
        return blockedCategories;
    }

    public void setBlockedCategories(List<String> blockedCategories) {
        this.blockedCategories = blockedCategories;
    }

    public List<String> getBlockedAdvertisers() {
        return blockedAdvertisers;
    }

    public void setBlockedAdvertisers(List<String> blockedAdvertisers) {
        this.blockedAdvertisers = blockedAdvertisers;
    }

    public Map<String, String> getExt() {
        return ext;
    }

    public void setExt(Map<String, String> ext) {
        this.ext = ext;
    }

    public long getCreatedAtMillis() {
        return createdAtMillis;
    }

    public void setCreatedAtMillis(long createdAtMillis) {
        this.createdAtMillis = createdAtMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof BidRequest r)) {
            return false;
        }
        return maxResponseMillis == r.maxResponseMillis && test == r.test && createdAtMillis == r.createdAtMillis
                && Objects.equals(id, r.id) && Objects.equals(impressions, r.impressions)
                && Objects.equals(site, r.site) && Objects.equals(app, r.app) && Objects.equals(device, r.device)
                && Objects.equals(visitor, r.visitor) && auctionType == r.auctionType
                && Objects.equals(currencies, r.currencies) && Objects.equals(blockedCategories, r.blockedCategories)
                && Objects.equals(blockedAdvertisers, r.blockedAdvertisers) && Objects.equals(ext, r.ext);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, impressions, site, app, device, visitor, auctionType, maxResponseMillis, test,
                currencies, blockedCategories, blockedAdvertisers, ext, createdAtMillis);
    }

    @Override
    public String toString() {
        return "BidRequest{id=" + id + ", impressions=" + impressions + ", site=" + site + ", app=" + app
                + ", device=" + device + ", visitor=" + visitor + ", auctionType=" + auctionType
                + ", maxResponseMillis=" + maxResponseMillis + ", test=" + test + ", currencies=" + currencies
                + ", blockedCategories=" + blockedCategories + ", blockedAdvertisers=" + blockedAdvertisers
                + ", ext=" + ext + ", createdAtMillis=" + createdAtMillis + "}";
    }
}
