package io.kestrel.rpc.perf.server;

/** A running server that a server JVM ({@link PerfServerMain}) serves from. */
public interface BenchServer extends AutoCloseable {
    /** The port it listens on, on 127.0.0.1. */
    int port();

    /**
     * Bytes allocated so far by the threads that serve (what the runner's ALLOC asks): this JVM's live threads,
     * unless the server runs in a process of its own (the stock Dubbo systems).
     */
    default long allocatedBytes() {
        return io.kestrel.rpc.perf.support.ThreadAllocation.totalAllocatedBytes();
    }

    /** Stops serving and releases threads and sockets. */
    @Override
    void close();

    /** A server listening on {@code port} that {@code stop} stops. */
    static BenchServer of(int port, Runnable stop) {
        return new BenchServer() {
            @Override
            public int port() {
                return port;
            }

            @Override
            public void close() {
                stop.run();
            }
        };
    }
}
