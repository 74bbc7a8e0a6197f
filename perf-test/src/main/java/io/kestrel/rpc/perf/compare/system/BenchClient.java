package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.perf.support.Workload;

/**
 * The client half of a {@link BenchSystem}: makes one {@link Caller} per load thread and counts the
 * bytes all of them moved on the wire. Byte counters are cumulative and thread-safe.
 */
public interface BenchClient extends AutoCloseable {
    /** A caller for one load thread; it may open its own connection. */
    Caller newCaller(Workload workload) throws Exception;

    /**
     * A caller that starts calls without waiting, all over the client's shared connection, for the
     * pipelined workload; null if this system has no asynchronous form (the REST and echo baselines).
     */
    default AsyncCaller newAsyncCaller(Workload workload) throws Exception {
        return null;
    }

    /** Bytes written to sockets by this client so far, all connections together. */
    long bytesWritten();

    /** Bytes read from sockets by this client so far, all connections together. */
    long bytesRead();

    @Override
    void close();
}
