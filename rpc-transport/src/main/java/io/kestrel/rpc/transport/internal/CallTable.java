package io.kestrel.rpc.transport.internal;

import io.netty.util.collection.LongObjectHashMap;
import java.util.ArrayList;
import java.util.List;

/**
 * The pending calls of one connection by request id, for {@link PendingCalls}: open-addressed maps keyed by
 * the primitive id (Netty's {@link LongObjectHashMap}), so adding and removing a call allocate nothing (a
 * {@code ConcurrentHashMap} costs a node and a boxed key per call, and a boxed key per lookup). The ids are
 * spread over {@value #STRIPES} maps by their low bits, each map under its own lock held for a few array
 * accesses: consecutive ids (the calling threads' and the event loop's answers) take different locks, so a
 * thread descheduled while holding one does not stall the others. Thread-safe.
 */
final class CallTable {
    /** Maps the ids are spread over (a power of two). */
    static final int STRIPES = 16;

    private final Object[] maps = new Object[STRIPES];

    CallTable() {
        for (int i = 0; i < STRIPES; i++) {
            maps[i] = new LongObjectHashMap<PendingCall>();
        }
    }

    @SuppressWarnings("unchecked")
    private LongObjectHashMap<PendingCall> stripe(long id) {
        return (LongObjectHashMap<PendingCall>) maps[(int) id & (STRIPES - 1)];
    }

    void put(PendingCall call) {
        LongObjectHashMap<PendingCall> map = stripe(call.id);
        synchronized (map) {
            map.put(call.id, call);
        }
    }

    /** Removes and returns the call with this id; null if none. */
    PendingCall remove(long id) {
        LongObjectHashMap<PendingCall> map = stripe(id);
        synchronized (map) {
            return map.remove(id);
        }
    }

    /** Removes {@code call} if it is still in the table; false if it was removed already. */
    boolean remove(PendingCall call) {
        LongObjectHashMap<PendingCall> map = stripe(call.id);
        synchronized (map) {
            if (map.get(call.id) != call) {
                return false;
            }
            map.remove(call.id);
            return true;
        }
    }

    /** The calls in the table now, copied out (so that failing them runs no callback under a lock). */
    List<PendingCall> snapshot() {
        List<PendingCall> all = new ArrayList<>();
        for (int i = 0; i < STRIPES; i++) {
            @SuppressWarnings("unchecked")
            LongObjectHashMap<PendingCall> map = (LongObjectHashMap<PendingCall>) maps[i];
            synchronized (map) {
                all.addAll(map.values());
            }
        }
        return all;
    }
}
