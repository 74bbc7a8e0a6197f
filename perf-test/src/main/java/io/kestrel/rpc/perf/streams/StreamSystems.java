package io.kestrel.rpc.perf.streams;

import java.util.ArrayList;
import java.util.List;

/** The streams benchmark's systems by name. */
public final class StreamSystems {
    /** What perf-test's server JVM is told to run for a streams system: this prefix and its name. */
    public static final String SERVER_PREFIX = "stream-";

    /** The default selection: each serialization's raw loop right before its framework system, then grpc-java. */
    public static final List<String> DEFAULTS = List.of("raw-stream-fory", "kestrel-fory", "raw-stream-kryo",
            "kestrel-kryo", GrpcStreamSystem.NAME);

    private StreamSystems() {
    }

    /**
     * The system called {@code name}: {@code kestrel-<serialization>}, {@code kestrel-<serialization>-direct} (no
     * hand-offs: callbacks=direct, the echo on the provider's I/O thread), {@code raw-stream-<serialization>} or
     * {@code grpc}.
     *
     * @throws IllegalArgumentException for another name, listing the known shapes
     */
    public static StreamSystem create(String name) {
        if (name.equals(GrpcStreamSystem.NAME)) {
            return new GrpcStreamSystem();
        }
        if (name.startsWith(RawStreamSystem.PREFIX) && name.length() > RawStreamSystem.PREFIX.length()) {
            return new RawStreamSystem(name.substring(RawStreamSystem.PREFIX.length()));
        }
        if (name.startsWith(KestrelStreamSystem.PREFIX) && name.length() > KestrelStreamSystem.PREFIX.length()) {
            return new KestrelStreamSystem(name.substring(KestrelStreamSystem.PREFIX.length()));
        }
        throw new IllegalArgumentException("unknown streams system '" + name + "'; known: kestrel-<serialization>,"
                + " kestrel-<serialization>-direct, raw-stream-<serialization>, grpc (default "
                + String.join(",", DEFAULTS) + ")");
    }

    /** The systems of a comma-separated list. */
    public static List<StreamSystem> parse(List<String> names) {
        List<StreamSystem> systems = new ArrayList<>();
        for (String n : names) {
            systems.add(create(n.trim()));
        }
        return systems;
    }
}
