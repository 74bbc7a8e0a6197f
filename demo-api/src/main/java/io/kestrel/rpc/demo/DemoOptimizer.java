package io.kestrel.rpc.demo;

import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.demo.bid.AdPosition;
import io.kestrel.rpc.demo.bid.App;
import io.kestrel.rpc.demo.bid.AuctionType;
import io.kestrel.rpc.demo.bid.Banner;
import io.kestrel.rpc.demo.bid.Bid;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;
import io.kestrel.rpc.demo.bid.Device;
import io.kestrel.rpc.demo.bid.DeviceType;
import io.kestrel.rpc.demo.bid.Geo;
import io.kestrel.rpc.demo.bid.Impression;
import io.kestrel.rpc.demo.bid.NoBidReason;
import io.kestrel.rpc.demo.bid.Publisher;
import io.kestrel.rpc.demo.bid.SeatBid;
import io.kestrel.rpc.demo.bid.Site;
import io.kestrel.rpc.demo.bid.Size;
import io.kestrel.rpc.demo.bid.Visitor;
import io.kestrel.rpc.demo.user.User;
import io.kestrel.rpc.demo.user.UserNotFoundException;
import io.kestrel.rpc.demo.user.UserStatus;
import java.util.Collection;
import java.util.List;

/**
 * Registers every demo model class with the serializer, e.g.
 * {@code <rpc:protocol serialization="kryo" optimizer="io.kestrel.rpc.demo.DemoOptimizer"/>}.
 *
 * <p>The order is part of the wire contract for formats that write registration ids (kryo, fst):
 * append new classes at the end, never reorder or remove.
 */
public class DemoOptimizer implements SerializationOptimizer {
    private static final List<Class<?>> CLASSES = List.of(
            // bid model
            BidRequest.class, Impression.class, Banner.class, Size.class, Site.class, App.class,
            Publisher.class, Device.class, Geo.class, Visitor.class, BidResponse.class, SeatBid.class, Bid.class,
            AuctionType.class, AdPosition.class, DeviceType.class, NoBidReason.class,
            // user model
            User.class, UserStatus.class, UserNotFoundException.class);

    /** Public no-arg constructor, as the framework instantiates optimizers by class name. */
    public DemoOptimizer() {
    }

    @Override
    public Collection<Class<?>> getSerializableClasses() {
        return CLASSES;
    }
}
