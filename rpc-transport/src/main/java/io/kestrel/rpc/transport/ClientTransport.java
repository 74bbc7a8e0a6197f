package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The consumer side of the transport: keeps exactly one {@link Connection} per provider address,
 * shared by every reference and thread, plus the event loops and the timer wheel all of them use.
 * Thread-safe.
 */
public final class ClientTransport implements AutoCloseable {
    final EventLoopGroup group;
    final HashedWheelTimer timer;
    final TransportCounters counters = new TransportCounters();
    final ClassAllowlist allowlist;
    private final ConcurrentHashMap<String, Connection> connections = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * @param ioThreads event-loop threads for all connections
     * @param allowlist decides which exception classes a provider may name when its exception has
     *     to be rebuilt from type and message
     */
    public ClientTransport(int ioThreads, ClassAllowlist allowlist) {
        this.group = new MultiThreadIoEventLoopGroup(ioThreads, new DefaultThreadFactory("kestrel-client-io", true),
                NioIoHandler.newFactory());
        this.timer = new HashedWheelTimer(new DefaultThreadFactory("kestrel-client-timer", true), 10,
                TimeUnit.MILLISECONDS, 512);
        this.allowlist = allowlist;
    }

    /**
     * The connection to {@code host:port}, opened (and awaited up to the connect timeout) if there
     * is none yet. A connection that could not be opened is returned anyway: it keeps
     * reconnecting in the background and fails calls at once until it succeeds.
     */
    public Connection connection(String host, int port, ClientOptions options) {
        if (closed) {
            throw new IllegalStateException("client transport is closed");
        }
        String key = host + ":" + port;
        Connection existing = connections.get(key);
        if (existing != null) {
            existing.awaitFirstConnect();
            return existing;
        }
        Connection created = connections.computeIfAbsent(key, k -> new Connection(this, host, port, options));
        created.awaitFirstConnect();
        return created;
    }

    /** The connection to this address if one exists, else null. */
    public Connection existing(String host, int port) {
        return connections.get(host + ":" + port);
    }

    /** Closes and forgets the connection to this address, failing its pending calls. */
    public void disconnect(String host, int port) {
        Connection c = connections.remove(host + ":" + port);
        if (c != null) {
            c.close();
        }
    }

    public List<Connection> connections() {
        return new ArrayList<>(connections.values());
    }

    public TransportCounters counters() {
        return counters;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        connections.values().forEach(Connection::close);
        connections.clear();
        timer.stop();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
