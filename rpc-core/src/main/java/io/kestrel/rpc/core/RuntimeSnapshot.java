package io.kestrel.rpc.core;

/**
 * The figures of one runtime read together at one moment ({@link RuntimeInspector#snapshot()}): its server, its
 * connections to providers, its business pool and its registry connection. Immutable; take a new one to see
 * changes. Health checks, metrics, the console and the actuator endpoints read the same record.
 *
 * @param server the provider side
 * @param client the consumer side
 * @param pool the server's business pool
 * @param registry where the registry connection is; never connects to find out
 */
public record RuntimeSnapshot(Server server, Client client, Pool pool, RegistryState registry) {

    /** Whether the registry is reachable now: false in direct mode, before its first use and once closed. */
    public boolean registryConnected() {
        return registry == RegistryState.CONNECTED;
    }

    /** Wire counters of everything the runtime moved: its client connections and its server together. */
    public TransportStats wire() {
        return client.wire().plus(server.wire());
    }

    /**
     * The provider side of a runtime.
     *
     * @param accepting whether the server is bound and takes new calls (false before the first export and once
     *     closing)
     * @param port the bound port, or -1 before the first export
     * @param connections consumer connections open to the server
     * @param inFlightCalls calls the server has taken on and not yet answered
     * @param memoryInUseBytes bytes held for requests in progress and responses not yet written, counted against
     *     the protocol's memory budget
     * @param refusedConnections connections refused at the connection limits so far
     * @param wire the server's wire counters (zeros when nothing is exported)
     * @param openStreams streams open now on the server's connections
     */
    public record Server(boolean accepting, int port, int connections, int inFlightCalls, long memoryInUseBytes,
            long refusedConnections, TransportStats wire, int openStreams) {
        /** The figures without streams (as before streams were counted). */
        public Server(boolean accepting, int port, int connections, int inFlightCalls, long memoryInUseBytes,
                long refusedConnections, TransportStats wire) {
            this(accepting, port, connections, inFlightCalls, memoryInUseBytes, refusedConnections, wire, 0);
        }
    }

    /**
     * The consumer side of a runtime.
     *
     * @param connections connections to providers
     * @param pendingCalls calls sent to providers and not yet answered or timed out
     * @param wire the wire counters of the connections to providers
     */
    public record Client(int connections, int pendingCalls, TransportStats wire) {
    }

    /**
     * The server's business pool (0 and 0 when nothing is exported).
     *
     * @param active business threads running a call now
     * @param queued calls waiting for a business thread (the protocol's {@code queues})
     */
    public record Pool(int active, int queued) {
    }
}
