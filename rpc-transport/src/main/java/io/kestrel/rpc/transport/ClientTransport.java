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
     * Takes a share of the connection to {@code host:port}, opening it if there is none yet. With
     * {@code awaitConnect}, waits up to the connect timeout for the first attempt. A connection that
     * could not be opened is returned anyway: it keeps reconnecting in the background and fails calls
     * at once until it succeeds. Every acquire is paired with one {@link #release}.
     */
    public Connection acquire(String host, int port, ClientOptions options, boolean awaitConnect) {
        if (closed) {
            throw new IllegalStateException("client transport is closed");
        }
        Connection c = connections.compute(host + ":" + port, (k, existing) -> {
            Connection conn = existing != null ? existing : new Connection(this, host, port, options);
            conn.users++;
            return conn;
        });
        if (awaitConnect) {
            c.awaitFirstConnect();
        }
        return c;
    }

    /**
     * Gives back a share taken by {@link #acquire}; the last one closes the connection once the
     * calls already sent on it are answered.
     */
    public void release(String host, int port) {
        Connection[] toClose = new Connection[1];
        connections.computeIfPresent(host + ":" + port, (k, conn) -> {
            if (--conn.users > 0) {
                return conn;
            }
            toClose[0] = conn;
            return null;
        });
        if (toClose[0] != null) {
            toClose[0].closeWhenIdle();
        }
    }

    /** The connection to this address if one exists, else null. */
    public Connection existing(String host, int port) {
        return connections.get(host + ":" + port);
    }

    /** Whether the calling thread is one of this transport's event loops (where blocking is forbidden). */
    public boolean inEventLoop() {
        for (io.netty.util.concurrent.EventExecutor e : group) {
            if (e.inEventLoop()) {
                return true;
            }
        }
        return false;
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
