package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.perf.compare.system.IsolatedModule;
import io.kestrel.rpc.perf.server.BenchServer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;

/**
 * grpc-java 1.85 streaming at both ends (module {@code perf-test-grpc}, its own class path): methods described by
 * hand with a byte-array marshaller, so a message is its payload with no serializer around it; grpc's defaults
 * (cached thread pool for callbacks and handlers, automatic flow control), NIO event loops, plaintext HTTP/2, one
 * channel. Its server JVM runs from that class path, its client in an isolated class loader, called by reflection.
 */
final class GrpcStreamSystem implements StreamSystem {
    static final String NAME = "grpc";

    static final IsolatedModule GRPC = new IsolatedModule("grpc-java", "kestrel.perf.grpc.module", "perf-test-grpc",
            "io.kestrel.rpc.perf.grpc.GrpcStreamServerMain", "io.kestrel.rpc.perf.grpc.GrpcStreamClient");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "grpc-java 1.85.1 (grpc-netty-shaded) at both ends, byte[] messages through a pass-through marshaller,"
                + " grpc's default executors and flow control, NIO, one channel; feed sends while isReady(); bytes"
                + " counted by a handler first in the client channel's pipeline (HTTP/2 framing included)";
    }

    @Override
    public String rawLoop() {
        return null;
    }

    @Override
    public int messageBytes(int payload) {
        return payload;
    }

    @Override
    public BenchServer startServer() {
        throw new UnsupportedOperationException("grpc's server runs in a JVM of its own: startOwnServer()");
    }

    @Override
    public IsolatedModule.Server startOwnServer() throws Exception {
        String unavailable = GRPC.unavailableReason();
        if (unavailable != null) {
            throw new IllegalStateException(unavailable);
        }
        return GRPC.startServer();
    }

    @Override
    public StreamClient openClient(String host, int port, Duration timeout, int payload) throws Exception {
        ClassLoader isolated = GRPC.clientLoader();
        Class<?> type = GRPC.clientType();
        Object client = inLoader(isolated, () -> type.getConstructor(String.class, int.class, long.class, int.class)
                .newInstance(host, port, timeout.toMillis(), payload));
        Method feed = type.getMethod("serverStreams", int.class, int.class);
        Method echo = type.getMethod("pingPong", int.class, int.class);
        Method written = type.getMethod("bytesWritten");
        Method read = type.getMethod("bytesRead");
        Method close = type.getMethod("close");
        return new StreamClient() {
            @Override
            public long serverStreams(int streams, int count) throws Exception {
                return (long) inLoader(isolated, () -> feed.invoke(client, streams, count));
            }

            @Override
            public long pingPong(int streams, int trips) throws Exception {
                return (long) inLoader(isolated, () -> echo.invoke(client, streams, trips));
            }

            @Override
            public long bytesWritten() {
                return uncheckedCall(written);
            }

            @Override
            public long bytesRead() {
                return uncheckedCall(read);
            }

            @Override
            public void close() throws Exception {
                inLoader(isolated, () -> close.invoke(client));
            }

            private long uncheckedCall(Method m) {
                try {
                    return (long) m.invoke(client);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("grpc client: " + m.getName() + " failed", e);
                }
            }
        };
    }

    private interface Action {
        Object run() throws Exception;
    }

    /** Runs {@code action} with the isolated loader as context class loader, unwrapping reflection's wrapper. */
    private static Object inLoader(ClassLoader isolated, Action action) throws Exception {
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(isolated);
        try {
            return action.run();
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        } finally {
            self.setContextClassLoader(previous);
        }
    }
}
