package io.kestrel.rpc.demo.bid;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deterministic sample data: a bid request of about 1-2 KB when serialized (two banner impressions,
 * a site with publisher, a device with geo, a visitor, extension map, some null fields) and the
 * response a simple bidder gives to it. Every call returns new, equal objects built only from mutable
 * JDK collections ({@link ArrayList}, {@link LinkedHashMap}), which every serialization can rebuild.
 */
public final class BidFixtures {
    /** Creation time of the sample request: 2024-05-01T12:00:00Z. */
    public static final long SAMPLE_CREATED_AT_MILLIS = 1_714_564_800_000L;

    private BidFixtures() {
    }

    /** A new sample request; equal on every call. */
    public static BidRequest sampleRequest() {
        BidRequest r = new BidRequest();
        r.setId("8d3c6e2a-6f1b-4c1e-9a57-2f0e5b7c9d41");
        r.setImpressions(list(
                impression("1", 300, 250, AdPosition.ABOVE_THE_FOLD, "homepage-top-rectangle", "0.85",
                        list(new Size(300, 250), new Size(336, 280))),
                impression("2", 728, 90, AdPosition.BELOW_THE_FOLD, "homepage-leaderboard", "1.20",
                        list(new Size(728, 90), new Size(970, 90), new Size(970, 250)))));

        Site site = new Site();
        site.setId("site-10293");
        site.setName("Daily Kestrel News");
        site.setDomain("news.kestrel.example");
        site.setPage("https://news.kestrel.example/world/2024/05/01/markets-open-higher-as-rates-hold");
        site.setReferrer("https://search.example/?q=markets+today");
        site.setCategories(list("IAB12", "IAB12-2", "IAB13"));
        site.setPublisher(new Publisher("pub-4471", "Kestrel Media Group", "kestrel.example"));
        site.setMobileOptimized(true);
        r.setSite(site);
        r.setApp(null);

        Geo geo = new Geo();
        geo.setLatitude(52.520008);
        geo.setLongitude(13.404954);
        geo.setCountry("DEU");
        geo.setRegion("BE");
        geo.setCity("Berlin");
        geo.setZip("10117");
        geo.setUtcOffsetMinutes(120);

        Device device = new Device();
        device.setUserAgent("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                + "Chrome/124.0.6367.82 Mobile Safari/537.36");
        device.setIp("203.0.113.42");
        device.setGeo(geo);
        device.setType(DeviceType.MOBILE);
        device.setMake("Google");
        device.setModel("Pixel 8");
        device.setOs("Android");
        device.setOsVersion("14");
        device.setLanguage("de");
        device.setScreenWidth(412);
        device.setScreenHeight(915);
        device.setDoNotTrack(false);
        device.setAdvertisingId(null);
        r.setDevice(device);

        Visitor visitor = new Visitor();
        visitor.setId("u-5f2a9c7e1b");
        visitor.setBuyerUid("buyer-77d1e0");
        visitor.setYearOfBirth(1987);
        visitor.setGender(null);
        visitor.setKeywords(list("finance", "sailing", "jazz"));
        r.setVisitor(visitor);

        r.setAuctionType(AuctionType.FIRST_PRICE);
        r.setMaxResponseMillis(120);
        r.setTest(false);
        r.setCurrencies(list("EUR", "USD"));
        r.setBlockedCategories(list("IAB7-39", "IAB8-18", "IAB9-9", "IAB25", "IAB26"));
        r.setBlockedAdvertisers(list("competitor.example", "spammy-ads.example"));
        Map<String, String> ext = new LinkedHashMap<>();
        ext.put("schain", "1.0,1!exchange.example,4471,1");
        ext.put("gdpr", "1");
        ext.put("consent", "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA");
        ext.put("floorsModel", "v3-2024-04");
        r.setExt(ext);
        r.setCreatedAtMillis(SAMPLE_CREATED_AT_MILLIS);
        return r;
    }

    /** The response {@link #responseFor} gives to {@link #sampleRequest()}. */
    public static BidResponse sampleResponse() {
        return responseFor(sampleRequest());
    }

    /**
     * What a simple deterministic bidder answers: one seat bidding on every impression at its floor
     * plus 0.15, with a creative of the impression's preferred size.
     */
    public static BidResponse responseFor(BidRequest request) {
        List<Bid> bids = new ArrayList<>();
        List<Impression> impressions = request.getImpressions() == null ? List.of() : request.getImpressions();
        for (Impression imp : impressions) {
            Bid bid = new Bid();
            bid.setId("bid-" + request.getId().substring(0, 8) + "-" + imp.getId());
            bid.setImpressionId(imp.getId());
            BigDecimal floor = imp.getBidFloor() == null ? BigDecimal.ZERO : imp.getBidFloor();
            bid.setPrice(floor.add(new BigDecimal("0.15")));
            bid.setAdId("ad-90210-" + imp.getId());
            bid.setWinNoticeUrl("https://bidder.example/win?imp=" + imp.getId() + "&price=${AUCTION_PRICE}");
            int w = imp.getBanner() == null ? 0 : imp.getBanner().getWidth();
            int h = imp.getBanner() == null ? 0 : imp.getBanner().getHeight();
            bid.setAdMarkup("<a href=\"https://shop.example/spring-sale?src=rtb\"><img src=\"https://cdn.example/c/"
                    + w + "x" + h + "/spring-sale.png\" width=\"" + w + "\" height=\"" + h + "\" alt=\"Spring sale\"></a>");
            bid.setAdvertiserDomains(list("shop.example"));
            bid.setCreativeId("cr-" + w + "x" + h + "-0042");
            bid.setWidth(w);
            bid.setHeight(h);
            bid.setCategories(list("IAB22"));
            bid.setDealId(null);
            bids.add(bid);
        }
        SeatBid seat = new SeatBid();
        seat.setSeat("seat-kestrel-1");
        seat.setBids(bids);
        seat.setGroup(false);

        BidResponse response = new BidResponse();
        response.setId(request.getId());
        response.setSeatBids(list(seat));
        response.setBidId("resp-" + request.getId().substring(0, 8));
        response.setCurrency("EUR");
        response.setNoBidReason(null);
        Map<String, String> ext = new LinkedHashMap<>();
        ext.put("bidderVersion", "2.3.1");
        response.setExt(ext);
        response.setProcessingMicros(850);
        return response;
    }

    private static Impression impression(String id, int w, int h, AdPosition pos, String tagId, String floor,
            List<Size> sizes) {
        Banner banner = new Banner();
        banner.setWidth(w);
        banner.setHeight(h);
        banner.setSizes(sizes);
        banner.setPosition(pos);
        banner.setMimeTypes(list("image/jpeg", "image/png", "text/html"));
        banner.setBlockedCreativeTypes(list(1, 3));
        banner.setTopFrame(true);
        Impression imp = new Impression();
        imp.setId(id);
        imp.setBanner(banner);
        imp.setTagId(tagId);
        imp.setBidFloor(new BigDecimal(floor));
        imp.setBidFloorCurrency("EUR");
        imp.setSecure(true);
        imp.setInterstitial(false);
        imp.setDealId(null);
        return imp;
    }

    @SafeVarargs
    private static <T> List<T> list(T... items) {
        return new ArrayList<>(Arrays.asList(items));
    }
}
