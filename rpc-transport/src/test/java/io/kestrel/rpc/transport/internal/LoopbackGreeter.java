package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.config.ClientConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.transport.spi.ClientOptions;
import io.kestrel.rpc.transport.ClientTransport;
import io.kestrel.rpc.transport.Connection;
import io.kestrel.rpc.transport.spi.IncomingCall;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.RpcServer;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.kestrel.rpc.transport.spi.ServerMethod;
import io.kestrel.rpc.transport.ThreadlessWait;
import io.kestrel.rpc.api.serialization.Serializer;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A real provider on a loopback port serving {@link TestSupport.Greeter#greet} with a UTF-8 serializer, and real
 * consumer connections to it: what the threadless and batch tests call over sockets. {@code greet(name)} answers
 * "hello " + name; names starting "sleep:N" sleep N ms first, "block" waits until {@link #unblock}, "boom" throws.
 * The serializer notes on which thread each answer was decoded by the consumer, the provider on which thread each
 * call ran.
 */
public final class LoopbackGreeter implements AutoCloseable {
    public static final MethodRef GREET = new MethodRef(TestSupport.KEY, TestSupport.GREET);

    /** Answer text to the name of the thread that decoded it on the consumer side. */
    final Map<String, String> decodedOn = new ConcurrentHashMap<>();
    /** Name given to greet to the name of the provider thread that ran it. */
    final Map<String, String> ranOn = new ConcurrentHashMap<>();
    final CountDownLatch unblock = new CountDownLatch(1);
    final RecordingUtf8 serializer = new RecordingUtf8();
    public final RpcServer server;
    private final ClientTransport transport;
    private final ClientTransport other;

    public LoopbackGreeter() {
        server = RpcServer.start(ProtocolConfig.builder().host("127.0.0.1").port(0)
                .shutdownTimeout(Duration.ofSeconds(2)).build(), new Dispatcher());
        transport = new ClientTransport(1, ClassAllowlist.withDefaults());
        other = new ClientTransport(1, ClassAllowlist.withDefaults());
    }

    /** The consumer's one connection to the provider. */
    public Connection connection() {
        return connect(transport);
    }

    /** A second consumer's connection (its own transport, so its own TCP connection). */
    Connection otherConnection() {
        return connect(other);
    }

    private Connection connect(ClientTransport t) {
        Connection c = t.acquire("127.0.0.1", server.port(), ClientOptions.from(ClientConfig.builder()
                .payloadBytes(1 << 20).maxPendingCalls(4096).connectTimeout(Duration.ofSeconds(5))
                .heartbeatInterval(Duration.ofSeconds(30)).heartbeatMisses(3).build()), "test", true);
        if (!c.isConnected()) {
            throw new IllegalStateException("not connected: " + c.lastError());
        }
        return c;
    }

    ClientTransport transport() {
        return transport;
    }

    /** greet(name) on {@code c}; with {@code wait}, answered on that wait's thread. */
    public CompletableFuture<Object> greet(Connection c, String name, int timeoutMillis, ThreadlessWait wait) {
        return c.invoke(GREET, serializer, new Object[] {name}, Map.of(), timeoutMillis, CharSequence.class, null, wait);
    }

    @Override
    public void close() {
        unblock.countDown();
        transport.close();
        other.close();
        server.close();
    }

    /** UTF-8 strings; a value read as {@code CharSequence} (the consumer's answers here) notes its thread. */
    final class RecordingUtf8 implements Serializer {
        @Override
        public byte id() {
            return 78;
        }

        @Override
        public String name() {
            return "utf8-recording";
        }

        @Override
        public void serialize(Object value, OutputStream out) {
            try {
                out.write(String.valueOf(value instanceof Throwable t ? "!" + t.getMessage() : value)
                        .getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Object deserialize(InputStream in, Class<?> expectedType) {
            try {
                String s = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (s.startsWith("!")) {
                    return new IllegalStateException(s.substring(1));
                }
                if (expectedType == CharSequence.class) {
                    decodedOn.put(s, Thread.currentThread().getName());
                }
                return s;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private final class Dispatcher implements ServerDispatcher {
        @Override
        public ServerMethod resolve(String descriptor) {
            if (!descriptor.equals(GREET.descriptor())) {
                throw new io.kestrel.rpc.api.ServiceNotFoundException("no " + descriptor);
            }
            return new ServerMethod() {
                @Override
                public String displayName() {
                    return GREET.displayName();
                }

                @Override
                public Class<?>[] parameterTypes() {
                    return new Class<?>[] {String.class};
                }

                @Override
                public Serializer serializer(byte id) {
                    return serializer;
                }

                @Override
                public Object invoke(Object[] arguments, IncomingCall call) throws Exception {
                    String name = (String) arguments[0];
                    ranOn.put(name, Thread.currentThread().getName());
                    if (name.startsWith("sleep:")) { // the method's own slow work, what the callers time
                        Thread.sleep(Long.parseLong(name.substring(6, name.indexOf(':', 6) < 0 ? name.length()
                                : name.indexOf(':', 6))));
                    } else if (name.startsWith("block")) {
                        if (!unblock.await(20, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("never unblocked");
                        }
                    } else if (name.startsWith("boom")) {
                        throw new IllegalStateException("boom for " + name);
                    }
                    return "hello " + name;
                }
            };
        }
    }
}
