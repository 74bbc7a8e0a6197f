package io.kestrel.rpc.core.reliability;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts every constructor, setter, {@code readObject} and {@code readResolve} run of the harmless
 * gadget stand-ins (classes with the names of real gadget classes), so a test can prove the
 * provider refused them before creating one.
 */
public final class GadgetTrips {
    private static final AtomicInteger TRIPS = new AtomicInteger();

    private GadgetTrips() {
    }

    public static void trip() {
        TRIPS.incrementAndGet();
    }

    public static int count() {
        return TRIPS.get();
    }
}
