package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.security.Authenticator;
import io.kestrel.rpc.transport.internal.tls.TlsContext;
import io.kestrel.rpc.transport.internal.Admission;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.transport.internal.BusinessExecutor;
import io.kestrel.rpc.transport.internal.ByteCountingHandler;
import io.kestrel.rpc.transport.spi.ConnectionLimiter;
import io.kestrel.rpc.transport.internal.EventLoops;
import io.kestrel.rpc.transport.internal.MemoryBudget;
import io.kestrel.rpc.transport.internal.NativeProtocol;
import io.kestrel.rpc.transport.internal.RequestHandler;
import io.kestrel.rpc.transport.internal.ServerPipeline;
import io.kestrel.rpc.transport.internal.GoAwayHandler;
import io.kestrel.rpc.transport.internal.RequestHandler;
import io.kestrel.rpc.transport.internal.VirtualThreads;
import io.kestrel.rpc.transport.internal.dubbo.DubboPipeline;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's listening socket: accepts connections, decodes requests and runs them on a bounded
 * business pool. When the pool and its queue are full, callers get an immediate SERVER_BUSY
 * response. Thread-safe.
 */
public final class RpcServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RpcServer.class);
    /** A business thread idle this long exits, so an idle provider holds few threads. */
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(60);

    private final ProtocolConfig config;
    /** The address listened on: the config's host unless the caller chose another (see {@link #start}). */
    private final String host;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final ExecutorService businessPool;
    private final ChannelGroup channels = new DefaultChannelGroup("kestrel-server", GlobalEventExecutor.INSTANCE);
    private final TransportCounters counters = new TransportCounters();
    private final Admission admission;
    private final MemoryBudget budget;
    private final ConnectionLimiter limiter;
    private final Channel serverChannel;
    private final TlsContext tls;
    private final int port;
    private volatile boolean closed;

    private RpcServer(ProtocolConfig config, String host, ServerDispatcher dispatcher, Authenticator authenticator) {
        this.config = config;
        this.host = host;
        boolean dubbo = config.name().equals(ProtocolConfig.DUBBO);
        // checked before anything starts: an error names the PEM file and what is wrong with it
        this.tls = config.tls() != null ? TlsContext.forServer(config.tls()) : null;
        this.bossGroup = EventLoops.group(1, "kestrel-server-boss");
        this.workerGroup = EventLoops.group(config.ioThreads(), "kestrel-server-io");
        Executor executor;
        boolean virtual = config.virtualThreads() && VirtualThreads.available();
        if (config.virtualThreads() && !virtual) {
            log.warn("threads=\"virtual\" needs JDK 21 or later and this JVM is {}: service methods run on {}"
                    + " platform business threads instead (the threads setting's number)", Runtime.version(),
                    config.threads());
        }
        if (virtual) {
            businessPool = VirtualThreads.perTaskExecutor("kestrel-server-virtual-");
            executor = businessPool;
        } else if (config.threads() == 0) {
            businessPool = null;
            executor = Runnable::run;
        } else {
            // our own pool, not ThreadPoolExecutor: each call goes to the most recently idle thread (see BusinessExecutor)
            BusinessExecutor pool = new BusinessExecutor(config.threads(), config.queueCapacity(), KEEP_ALIVE,
                    new DefaultThreadFactory("kestrel-server-biz", true));
            businessPool = pool;
            executor = businessPool;
        }
        this.admission = new Admission(executor);
        ServerLimits limits = config.limits();
        this.budget = new MemoryBudget(limits.memoryBudgetBytes());
        this.limiter = new ConnectionLimiter(limits.maxConnections(), limits.maxConnectionsPerHost());
        ServerPipeline.Guards guards = new ServerPipeline.Guards(limiter, admission, budget, counters,
                new ByteCountingHandler(counters), config.payloadBytes(),
                limits.callsPerConnection(Math.max(1, config.threads())), limits.frameTimeout().toMillis(),
                limits.writeStallTimeout().toMillis(), limits.writeBufferBytes(),
                config.heartbeatInterval().toMillis() * config.heartbeatMisses(),
                limits.streamIdleTimeout().toMillis());
        // every protocol goes through ServerPipeline: the same limits, budget, backpressure and frame timeout
        ServerPipeline.Protocol protocol = dubbo ? new DubboPipeline(dispatcher)
                : new NativeProtocol(dispatcher, authenticator, tls, config.tls());
        ServerBootstrap b = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(EventLoops.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(limits.writeBufferBytes() / 2, limits.writeBufferBytes()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (ServerPipeline.install(ch, guards, protocol)) {
                            channels.add(ch);
                        }
                    }
                });
        ChannelFuture bind = b.bind(new InetSocketAddress(host, config.port())).awaitUninterruptibly();
        if (!bind.isSuccess()) {
            shutdownGroups();
            throw new TransportException("Cannot listen on " + host + ":" + config.port() + ": "
                    + bind.cause().getMessage() + ". Is another process using the port? Choose another port"
                    + " (port=\"0\" picks a free one)", bind.cause());
        }
        this.serverChannel = bind.channel();
        this.port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        log.info("Kestrel RPC server ({} protocol) listening on {}:{} ({} {} I/O threads, {} business threads, queue {}, payload limit {} bytes, {})",
                config.name(), host, port, config.ioThreads(), EventLoops.transportName(), virtual ? "virtual" : config.threads(), config.queueCapacity(), config.payloadBytes(),
                tls == null ? "plaintext" : "TLS " + config.tls().protocols() + ", client-auth "
                        + config.tls().clientAuth() + ", " + tls.description());
    }

    /**
     * Binds a server.
     *
     * @throws TransportException naming the address when the port cannot be bound
     */
    public static RpcServer start(ProtocolConfig config, ServerDispatcher dispatcher) {
        return new RpcServer(config, config.host(), dispatcher, null);
    }

    /**
     * Binds a server whose consumers' tokens are checked by {@code authenticator} (null: none).
     *
     * @throws IllegalArgumentException naming the TLS file and what is wrong with it
     * @throws TransportException naming the address when the port cannot be bound
     */
    public static RpcServer start(ProtocolConfig config, ServerDispatcher dispatcher, Authenticator authenticator) {
        return new RpcServer(config, config.host(), dispatcher, authenticator);
    }

    /**
     * Binds a server on {@code host} instead of the config's (the runtime's choice when {@code host} is unset and
     * the registry is read by other hosts); otherwise as {@link #start(ProtocolConfig, ServerDispatcher,
     * Authenticator)}.
     */
    public static RpcServer start(ProtocolConfig config, String host, ServerDispatcher dispatcher,
            Authenticator authenticator) {
        return new RpcServer(config, host, dispatcher, authenticator);
    }

    /** Whether this port speaks only TLS. */
    public boolean requiresTls() {
        return tls != null;
    }

    /** The bound port (the real one when the config asked for 0). */
    public int port() {
        return port;
    }

    public String host() {
        return host;
    }

    public TransportCounters counters() {
        return counters;
    }

    /** Calls accepted and not yet answered. */
    public int inFlight() {
        return admission.inFlight();
    }

    /** Bytes held now by requests in progress and responses not yet written (see {@link ServerLimits}). */
    public long memoryInUse() {
        return budget.used();
    }

    /** Connections refused by the connection limits so far. */
    public long refusedConnections() {
        return limiter.refused();
    }

    /** The listening channel (its type shows the transport in use: native epoll or NIO). */
    Channel listeningChannel() {
        return serverChannel;
    }

    /** Open consumer connections. */
    public int connectionCount() {
        return channels.size();
    }

    /** Streams open now on all consumer connections (none on the dubbo protocol). */
    public int openStreams() {
        int n = 0;
        for (Channel ch : channels) {
            RequestHandler h = ch.pipeline().get(RequestHandler.class);
            n += h == null ? 0 : h.openStreams();
        }
        return n;
    }

    /**
     * Business threads running a call now (0 when the protocol's {@code threads} is 0 or
     * {@code virtual}: virtual threads are not pooled; in-flight calls count them).
     */
    public int businessActive() {
        return businessPool instanceof BusinessExecutor p ? p.activeCount() : 0;
    }

    /** Calls waiting in the business pool's queue (0 when the protocol's {@code queues} is 0, or virtual threads). */
    public int businessQueued() {
        return businessPool instanceof BusinessExecutor p ? p.queued() : 0;
    }

    /**
     * Stops accepting connections, answers new calls on open connections with SERVER_BUSY (the call
     * did not run, so failover consumers retry elsewhere), and tells every consumer connection that
     * this provider is going away.
     */
    public void startClosing() {
        admission.startClosing();
        serverChannel.close().awaitUninterruptibly();
        for (Channel ch : channels) {
            GoAwayHandler h = ch.pipeline().get(GoAwayHandler.class);
            if (h != null) {
                h.goAway();
            }
        }
    }

    /** Every open connection acknowledged the going-away notice (or is closed). */
    private boolean allConsumersDrained() {
        for (Channel ch : channels) {
            GoAwayHandler h = ch.pipeline().get(GoAwayHandler.class);
            if (ch.isActive() && h != null && !h.drained()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Cancels every stream still open, telling each consumer {@code reason}: on each connection's event loop, so the
     * CANCEL frames are queued there ahead of the close that follows.
     */
    private void cancelStreams(String reason) {
        for (Channel ch : channels) {
            RequestHandler h = ch.pipeline().get(RequestHandler.class);
            if (h != null) {
                EventLoops.runAndWait(ch, () -> h.streams().cancelAll(reason), 2000);
            }
        }
    }

    /** Whether the server takes new calls: bound, and not closing or closed. */
    public boolean accepting() {
        return !closed && !admission.closing();
    }

    /** {@link #closeGracefully} with the protocol's shutdown timeout. */
    @Override
    public void close() {
        closeGracefully(config.shutdownTimeout());
    }

    /**
     * Stops accepting connections, refuses new calls (SERVER_BUSY, so failover clients retry
     * elsewhere), tells consumers it is going away and waits, up to {@code timeout}, until each has
     * acknowledged (so no request is still on the wire), every in-flight call has been answered and every
     * open stream has ended (open streams go on meanwhile; new ones are refused as shutting down); then
     * cancels the streams still open, naming the shutdown, and closes every connection.
     *
     * @return true if every in-flight call finished in time
     */
    public synchronized boolean closeGracefully(Duration timeout) {
        if (closed) {
            return true;
        }
        startClosing();
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean drained = true;
        while (admission.inFlight() > 0 || !allConsumersDrained() || openStreams() > 0) {
            if (System.nanoTime() > deadline) {
                int streams = openStreams();
                if (streams > 0) {
                    cancelStreams("the provider on port " + port + " is shutting down and its shutdown-timeout of "
                            + timeout.toMillis() + " ms passed with the stream open");
                }
                drained = admission.inFlight() == 0 && streams == 0;
                log.warn("Closing server on port {} after {} ms with {} calls still running{}{}", port, timeout.toMillis(),
                        admission.inFlight(), streams > 0 ? " and " + streams + " streams cancelled" : "",
                        allConsumersDrained() ? "" : " and consumers that did not acknowledge the shutdown");
                break;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        // let queued responses reach the socket before closing
        channels.close().awaitUninterruptibly(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (businessPool != null) {
            businessPool.shutdownNow();
        }
        shutdownGroups();
        closed = true;
        log.info("Kestrel RPC server on port {} closed ({})", port, counters);
        return drained;
    }

    private void shutdownGroups() {
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }
}
