package io.kestrel.rpc.perf.compare.system;

/**
 * Makes one synchronous call of a fixed workload and checks the answer. Used by one thread only.
 */
public interface Caller extends AutoCloseable {
    /**
     * Calls and waits for the result.
     *
     * @throws Exception if the call failed, timed out or returned something unexpected
     */
    void call() throws Exception;

    /** Releases this caller's connection, if it has its own. */
    @Override
    default void close() {
    }
}
