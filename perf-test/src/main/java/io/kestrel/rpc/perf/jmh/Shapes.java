package io.kestrel.rpc.perf.jmh;

import io.kestrel.rpc.demo.bid.BidFixtures;
import java.util.List;

/** The values the serializer benchmark encodes, by the name used in its {@code shape} parameter. */
public final class Shapes {
    /** Every shape name, in report order. */
    public static final List<String> NAMES = List.of("bidRequest", "bidResponse", "flatDto", "order1", "order100");

    private Shapes() {
    }

    /** A new instance of the named shape. */
    public static Object create(String name) {
        return switch (name) {
            case "bidRequest" -> BidFixtures.sampleRequest();
            case "bidResponse" -> BidFixtures.sampleResponse();
            case "flatDto" -> FlatDto.sample();
            case "order1" -> Order.sample(1);
            case "order100" -> Order.sample(100);
            default -> throw new IllegalArgumentException("Unknown shape '" + name + "'; known: " + NAMES);
        };
    }
}
