package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.perf.compare.system.IsolatedModule;
import io.kestrel.rpc.perf.server.BenchServer;
import java.time.Duration;

/** A system of the streams benchmark: its server (in a JVM of its own) and its client (in the runner's JVM). */
public interface StreamSystem {
    /** Name, e.g. {@code kestrel-fory}, {@code raw-stream-kryo}, {@code grpc}. */
    String name();

    /** One line for the report: what runs at each end and how bytes are counted. */
    String description();

    /** The name of the raw loop this system is read against (same serializer), or null. */
    String rawLoop();

    /** Bytes of one message as this system serializes a {@code payload}-byte message (before any framing). */
    int messageBytes(int payload);

    /** Starts the server in this JVM (the server JVM's side, {@code PerfServerMain}); see {@link #startOwnServer()}. */
    BenchServer startServer() throws Exception;

    /**
     * Starts a server JVM of the system's own (a peer on an isolated class path), or returns null: the runner then
     * starts perf-test's server JVM, which calls {@link #startServer()}.
     */
    default IsolatedModule.Server startOwnServer() throws Exception {
        return null;
    }

    /**
     * Connects to a server of this system.
     *
     * @param timeout how long one workload's streams may take before they count as failed
     * @param payload bytes per message
     */
    StreamClient openClient(String host, int port, Duration timeout, int payload) throws Exception;
}
