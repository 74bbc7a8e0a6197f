package io.kestrel.rpc.perf.streams;

/** One connection of a streams system, opened by the runner; the workloads block until their streams ended. */
public interface StreamClient extends AutoCloseable {
    /**
     * Opens {@code streams} server streams of {@code count} messages each at once, checks every message (order,
     * size) and waits until all completed.
     *
     * @return the messages received ({@code streams * count})
     * @throws Exception if a stream failed, ended short, or did not end within the client's timeout
     */
    long serverStreams(int streams, int count) throws Exception;

    /**
     * Opens {@code streams} bidirectional streams at once; each sends a message, waits for its echo (checked) and
     * sends the next, {@code trips} times, then half-closes. Waits until all completed.
     *
     * @return the round trips made ({@code streams * trips})
     */
    long pingPong(int streams, int trips) throws Exception;

    /** Bytes written to the connection's socket so far (0 if not counted). */
    long bytesWritten();

    /** Bytes read from the connection's socket so far (0 if not counted). */
    long bytesRead();

    /** The unary call to time beside a stream on the same connection, or null if the system has none. */
    default UnaryProbe unary() {
        return null;
    }

    @Override
    void close() throws Exception;

    /** A unary call, and a server stream to run beside it on the same connection. */
    interface UnaryProbe {
        /** One unary call, its answer checked. */
        void call() throws Exception;

        /**
         * Starts a server stream that sends until it is closed (the consumer reads every message as it comes).
         * Closing it cancels the stream and waits until it ended.
         */
        AutoCloseable startStream() throws Exception;
    }
}
