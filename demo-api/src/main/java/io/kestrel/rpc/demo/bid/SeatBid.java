package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** The bids of one buyer seat. Mutable bean. */
public class SeatBid implements Serializable {
    private static final long serialVersionUID = 1L;

    private String seat;
    private List<Bid> bids;
    /** Whether the impressions must be won all together or not at all. */
    private boolean group;

    public SeatBid() {
    }

    public String getSeat() {
        return seat;
    }

    public void setSeat(String seat) {
        this.seat = seat;
    }

    public List<Bid> getBids() {
        return bids;
    }

    public void setBids(List<Bid> bids) {
        this.bids = bids;
    }

    public boolean isGroup() {
        return group;
    }

    public void setGroup(boolean group) {
        this.group = group;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SeatBid s && group == s.group && Objects.equals(seat, s.seat) && Objects.equals(bids, s.bids);
    }

    @Override
    public int hashCode() {
        return Objects.hash(seat, bids, group);
    }

    @Override
    public String toString() {
        return "SeatBid{seat=" + seat + ", group=" + group + ", bids=" + bids + "}";
    }
}
