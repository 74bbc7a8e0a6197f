package io.kestrel.rpc.transport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who hears the state changes of one {@link Connection} ({@link Connection#onStateChange}): told in order on the
 * thread that changed the state; one that throws is logged and the others are still told.
 */
final class StateListeners {
    private static final Logger log = LoggerFactory.getLogger(Connection.class);

    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    void add(Runnable listener) {
        listeners.add(listener);
    }

    void remove(Runnable listener) {
        listeners.remove(listener);
    }

    /** Tells every listener; {@code address} names the connection if one fails. */
    void tell(String address) {
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.warn("A state listener of the connection to {} failed", address, e);
            }
        }
    }
}
