package io.kestrel.rpc.transport.internal.stream;

/**
 * The streams that the last frames of one connection were routed to, in a few slots chosen by the low bits of the
 * stream id, so the frames of the streams running now skip the connection's map (ids are the connection's request
 * ids, numbered in turn, so streams opened near each other take different slots). A slot only counts while its
 * stream has that id and has not ended. Written on the event loop; {@link #forget} may come from any thread, and a
 * lost race costs a map lookup, never a wrong route.
 */
final class RecentStreams<S extends StreamSide> {
    private static final int SLOTS = 8;
    private final Object[] slots = new Object[SLOTS];

    /** The stream of {@code id} routed lately and not ended, or null (look it up in the map). */
    @SuppressWarnings("unchecked")
    S get(long id) {
        S s = (S) slots[(int) id & (SLOTS - 1)];
        return s != null && s.streamId() == id && !s.isCancelled() ? s : null;
    }

    /** Remembers {@code stream} (null: nothing) as the one of {@code id}. */
    void put(long id, S stream) {
        slots[(int) id & (SLOTS - 1)] = stream;
    }

    /** {@code stream} ended: not held any longer. */
    void forget(long id, S stream) {
        int i = (int) id & (SLOTS - 1);
        if (slots[i] == stream) {
            slots[i] = null;
        }
    }
}
