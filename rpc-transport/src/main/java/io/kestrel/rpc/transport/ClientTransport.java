package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.ConsumerLimits;
import io.kestrel.rpc.api.config.ConnectionSettings;
import io.kestrel.rpc.api.config.TlsConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.transport.internal.dubbo.DubboPipeline;
import io.kestrel.rpc.transport.internal.tls.ClientTlsPeerCheck;
import io.kestrel.rpc.transport.internal.tls.CredentialSender;
import io.kestrel.rpc.transport.internal.tls.TlsContext;
import io.kestrel.rpc.transport.internal.ByteCountingHandler;
import io.kestrel.rpc.transport.internal.ClientCodec;
import io.kestrel.rpc.transport.internal.EventLoops;
import io.kestrel.rpc.transport.internal.FrameDecoder;
import io.kestrel.rpc.transport.internal.HeartbeatHandler;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.kestrel.rpc.transport.internal.WriteIdleHandler;
import io.kestrel.rpc.transport.internal.PendingCalls;
import io.kestrel.rpc.transport.internal.ResponseDecoder;
import io.kestrel.rpc.transport.spi.ClientOptions;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer side of the transport: keeps exactly one {@link Connection} per provider address,
 * shared by every reference and thread, plus the event loops and the timer wheel all of them use.
 * Thread-safe.
 */
public final class ClientTransport implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClientTransport.class);
    final EventLoopGroup group;
    final HashedWheelTimer timer;
    final TransportCounters counters = new TransportCounters();
    final ClassAllowlist allowlist;
    private final ByteCountingHandler byteCounter = new ByteCountingHandler(counters);
    private final ConcurrentHashMap<String, Connection> connections = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<TlsConfig, TlsContext> tlsContexts = new ConcurrentHashMap<>();
    /** Response bodies held by all connections ({@link ConsumerLimits#memoryBudgetBytes()}). */
    private final MemoryBudget responseBudget = new MemoryBudget(ConsumerLimits.memoryBudgetBytes());
    /** Where providers' serialized exceptions are decoded, off the I/O threads; bounded, refuses when full. */
    private final ThreadPoolExecutor errorDecoding;
    private volatile boolean closed;
    /** Closing: no new stream is opened (see {@link #drainStreams}). */
    private volatile boolean streamsRefused;

    /**
     * @param ioThreads event-loop threads for all connections
     * @param allowlist decides which exception classes a provider may name when its exception has
     *     to be rebuilt from type and message
     */
    public ClientTransport(int ioThreads, ClassAllowlist allowlist) {
        this.group = EventLoops.group(ioThreads, "kestrel-client-io");
        this.timer = new HashedWheelTimer(new DefaultThreadFactory("kestrel-client-timer", true), 10,
                TimeUnit.MILLISECONDS, 512);
        this.allowlist = allowlist;
        int threads = ConsumerLimits.errorDecodeThreads();
        this.errorDecoding = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(threads * ConsumerLimits.ERROR_DECODE_QUEUE),
                new DefaultThreadFactory("kestrel-client-errors", true));
        errorDecoding.allowCoreThreadTimeOut(true);
    }

    /** Bytes of response bodies the connections hold now (arriving, or read and not yet decoded). */
    public long responseBytesHeld() {
        return responseBudget.used();
    }

    /**
     * Reads and checks the TLS material for these settings now (at refer time) rather than at the first
     * connection, and keeps it for the connections that use them.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public void checkTls(TlsConfig config) {
        tls(config);
    }

    /**
     * The TLS material for these settings, read and checked on first use and shared by every
     * connection with the same settings.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    TlsContext tls(TlsConfig config) {
        return tlsContexts.computeIfAbsent(config, TlsContext::forClient);
    }

    /**
     * How connections are opened: the client pipeline, from the socket up to {@code lifecycle}.
     * <pre>
     *   bytes -> [tls-check -> tls] -> idle -> frame -> [credential] -> heartbeat -> codec -> lifecycle
     * </pre>
     * {@code frame} holds response bodies within the transport's memory budget and closes a connection whose
     * frame stays incomplete past the frame timeout ({@link ConsumerLimits}).
     * With TLS, {@code tls-check} recognises a plaintext provider's answer before the TLS engine
     * reads it; {@code credential} sends the token once, ahead of the handshake heartbeat, which asks for
     * the facts of {@code wantedServices}.
     */
    Bootstrap bootstrap(ClientOptions options, String host, int port, PendingCalls pending,
            Supplier<ChannelHandler> lifecycle, Supplier<Set<String>> wantedServices) {
        String address = host + ":" + port;
        ConnectionSettings settings = options.connection();
        TlsContext tls = settings.tls() != null ? tls(settings.tls()) : null;
        long interval = settings.heartbeatInterval().toMillis();
        long silence = interval * settings.heartbeatMisses();
        return new Bootstrap()
                .group(group)
                .channel(EventLoops.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) settings.connectTimeout().toMillis())
                // calls fail as not sent once this much waits unsent: a provider that does not read
                // cannot make this consumer buffer without bound
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                        (int) Math.min(Integer.MAX_VALUE / 2, 2L * settings.payloadBytes()),
                        (int) Math.min(Integer.MAX_VALUE, 4L * settings.payloadBytes())))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (options.dubbo()) {
                            DubboPipeline.installClient(ch, byteCounter, pending, counters, address,
                                    settings.payloadBytes(), responseBudget, ConsumerLimits.frameTimeoutMillis(),
                                    interval, silence, lifecycle.get());
                            return;
                        }
                        ch.pipeline().addLast("bytes", byteCounter);
                        if (tls != null) {
                            ch.pipeline()
                                    .addLast("tls-check", new ClientTlsPeerCheck(address))
                                    .addLast("tls", tls.newClientHandler(ch.alloc(), host, port));
                        }
                        ch.pipeline()
                                .addLast("idle", new IdleStateHandler(silence, 0, 0, TimeUnit.MILLISECONDS))
                                .addLast("write-idle", new WriteIdleHandler(interval, TimeUnit.MILLISECONDS))
                                .addLast("frame", FrameDecoder.consumer(settings.payloadBytes(), counters,
                                        responseBudget, ConsumerLimits.frameTimeoutMillis()));
                        if (settings.token() != null) {
                            ch.pipeline().addLast("credential", new CredentialSender(settings.token(),
                                    ConsumerLimits.bindToken()));
                        }
                        ch.pipeline()
                                .addLast("heartbeat", HeartbeatHandler.consumer(silence, wantedServices))
                                .addLast("codec", new ClientCodec(pending,
                                        new ResponseDecoder(address, settings.payloadBytes(), allowlist,
                                                errorDecoding), counters,
                                        address, settings.payloadBytes()))
                                .addLast("lifecycle", lifecycle.get());
                    }
                });
    }

    /**
     * Takes a share of the connection to {@code host:port}, opening it if there is none yet. With
     * {@code awaitConnect}, waits up to the connect timeout for the first attempt. A connection that
     * could not be opened is returned anyway: it keeps reconnecting in the background and fails calls
     * at once until it succeeds. Every acquire is paired with one {@link #release}.
     *
     * @param user who asks, for the message of a conflict
     * @throws IllegalArgumentException when the connection exists with other settings: connections
     *     are shared, so settings that differ would be silently ignored; the message names both users
     */
    public Connection acquire(String host, int port, ClientOptions options, String user, boolean awaitConnect) {
        return acquire(host, port, options, user, null, awaitConnect);
    }

    /**
     * {@link #acquire(String, int, ClientOptions, String, boolean)} for a user of {@code service} (its key
     * text, or null): the connection's handshake asks the provider for that service's facts
     * ({@link Connection#want}); with {@code awaitConnect}, a connection already up also waits (up to the
     * connect timeout) for the answer.
     */
    public Connection acquire(String host, int port, ClientOptions options, String user, String service,
            boolean awaitConnect) {
        if (closed) {
            throw new IllegalStateException("client transport is closed");
        }
        Connection c = connections.compute(host + ":" + port, (k, existing) -> {
            if (existing != null && !existing.options().equals(options)) {
                throw new IllegalArgumentException(user + " asks for connection settings " + options
                        + " to provider " + k + ", but the connection to it is shared and was opened by "
                        + existing.openedBy() + " with " + existing.options() + "; set these settings once, on the"
                        + " runtime's client config, or give both references the same values");
            }
            Connection conn = existing != null ? existing : new Connection(this, host, port, options, user, service);
            conn.users++;
            return conn;
        });
        CompletableFuture<Void> told = service == null ? null : c.want(service);
        if (awaitConnect) {
            c.awaitFirstConnect();
            if (told != null && c.isConnected()) {
                try {
                    told.get(options.connection().connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (ExecutionException | TimeoutException e) {
                    // not told in time: the reference uses its own settings until the answer arrives
                }
            }
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

    /**
     * Whether the calling thread is an event loop, where blocking is forbidden: one of this
     * transport's, or any other Netty event loop (a provider's I/O thread running a method
     * dispatched direct).
     */
    public boolean inEventLoop() {
        // every Netty event loop thread knows its executor: one thread-local read, no iteration per call
        return io.netty.util.internal.ThreadExecutorMap.currentExecutor() instanceof io.netty.channel.EventLoop;
    }

    public List<Connection> connections() {
        return new ArrayList<>(connections.values());
    }

    public TransportCounters counters() {
        return counters;
    }

    /**
     * The first step of closing: refuses new streams (as not sent, saying this consumer is shutting down), lets the
     * open ones go on for up to {@code grace}, then cancels those left with a reason naming the shutdown. Unary calls
     * are not held up. {@link #close} follows.
     *
     * @return the streams cancelled
     */
    public int drainStreams(java.time.Duration grace) {
        streamsRefused = true;
        long deadline = System.nanoTime() + grace.toNanos();
        while (openStreams() > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        int left = openStreams();
        if (left > 0) {
            log.warn("Cancelling {} stream(s) still open after the shutdown-timeout of {} ms", left, grace.toMillis());
            for (Connection c : connections.values()) {
                c.cancelStreams("the consumer is shutting down and its shutdown-timeout of "
                        + grace.toMillis() + " ms passed with the stream open");
            }
        }
        return left;
    }

    /** Whether new streams are refused (the transport is closing). */
    boolean streamsRefused() {
        return streamsRefused || closed;
    }

    /** Streams open now on every connection. */
    public int openStreams() {
        int n = 0;
        for (Connection c : connections.values()) {
            n += c.pending.streams().size();
        }
        return n;
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
        errorDecoding.shutdown();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
