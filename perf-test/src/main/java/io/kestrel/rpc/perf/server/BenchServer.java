package io.kestrel.rpc.perf.server;

/** A running server half of a {@link BenchSystem}. */
public interface BenchServer extends AutoCloseable {
    /** The port it listens on, on 127.0.0.1. */
    int port();

    /** Stops serving and releases threads and sockets. */
    @Override
    void close();
}
