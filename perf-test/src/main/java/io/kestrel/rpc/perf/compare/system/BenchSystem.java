package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.Workload;

/**
 * One system under test. The server half runs in the server JVM, the client half in the runner's
 * JVM; both are created from the same {@link #name()} and {@link SystemSettings}.
 */
public interface BenchSystem {
    /** Short name used on the command line and in reports, e.g. "kestrel-kryo", "rest-tomcat". */
    String name();

    /** One line for the report: what runs and how bytes are counted. */
    String description();

    /**
     * Why this system cannot run in this JVM (e.g. its serialization is not installed), or null if it
     * can.
     */
    default String unavailableReason() {
        return null;
    }

    /** Starts serving every {@link Workload} on 127.0.0.1 and a free port. */
    BenchServer startServer() throws Exception;

    /** Opens the client half against a server started by {@link #startServer()}. */
    BenchClient openClient(String host, int port) throws Exception;

    /**
     * Bytes of {@code workload}'s argument in this system's own encoding (serialized argument, JSON
     * body, raw payload), used to show the per-call overhead of the protocol; -1 if unknown.
     */
    long argumentBytes(Workload workload);
}
