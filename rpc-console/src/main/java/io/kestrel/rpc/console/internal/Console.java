package io.kestrel.rpc.console.internal;

import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.console.ConsoleConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.transport.spi.ConnectionLimiter;
import io.kestrel.rpc.transport.spi.TransportThreads;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web console of one runtime: an HTTP/1.1 server on its own port (one event loop), a worker pool of two
 * threads that answers requests, a timer that moves the live call figures into their time slots each second.
 * Hostile clients meet the same kinds of limits as on the RPC ports: connections capped in all and per remote
 * address (the transport's {@link ConnectionLimiter}), one request read at a time per connection and each
 * timed until it has arrived and its answer is taken ({@link ConsoleConnection}), bounded request line,
 * headers and body, and idle connections closed.
 */
public final class Console {
    private static final Logger log = LoggerFactory.getLogger(Console.class);
    /** Requests waiting for a worker beyond this are answered 503. */
    private static final int QUEUE = 64;

    private final ConsoleConfig config;
    private final ConsoleAccess access;
    private final CallStats stats;
    private final ScheduledExecutorService timer;
    private final ThreadPoolExecutor worker;
    private EventLoopGroup group;
    private Channel channel;
    private ConsoleApi api;
    private volatile boolean closed;

    public Console(ConsoleConfig config) {
        this.config = config;
        this.access = new ConsoleAccess(config);
        this.stats = new CallStats(config.window().toMillis(), System::currentTimeMillis);
        this.timer = Executors.newSingleThreadScheduledExecutor(daemon("kestrel-console-timer"));
        this.worker = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE),
                daemon("kestrel-console-worker"));
    }

    public ClientInterceptor clientInterceptor() {
        return stats.clientInterceptor();
    }

    public ServerInterceptor serverInterceptor() {
        return stats.serverInterceptor();
    }

    /** Binds the admin port and serves {@code runtime}. */
    public synchronized void start(RpcRuntime runtime) {
        api = new ConsoleApi(runtime, config, access);
        ConsoleRouter router = new ConsoleRouter(new StaticPages(), api, stats, access,
                new ConsoleInvoker(runtime), loopback(config.host()));
        ConsoleHandler handler = new ConsoleHandler(router, worker);
        int maxBody = config.maxRequestBytes();
        group = TransportThreads.eventLoops(1, "kestrel-console-io");
        ConnectionLimiter limiter = new ConnectionLimiter(config.maxConnections(), config.maxConnectionsPerHost(),
                "the web console", "rpc.console.");
        long requestTimeout = config.requestTimeout().toMillis();
        ServerBootstrap b = new ServerBootstrap().group(group).channel(TransportThreads.serverChannel())
                .childOption(ChannelOption.AUTO_READ, false) // ConsoleConnection reads one request at a time
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (!limiter.admit(ch)) {
                            ch.close();
                            return;
                        }
                        ch.pipeline().addLast("timeout", new ReadTimeoutHandler(120))
                                .addLast("connection", new ConsoleConnection(requestTimeout))
                                .addLast("http", new HttpServerCodec(4096, 16 * 1024, 8192))
                                .addLast("aggregate", new BoundedAggregator(maxBody))
                                .addLast("one-at-a-time", new FlowControlHandler())
                                .addLast("console", handler);
                    }
                });
        ChannelFuture bind = b.bind(new InetSocketAddress(config.host(), config.port())).awaitUninterruptibly();
        if (!bind.isSuccess()) {
            close();
            throw new TransportException("Cannot start the web console on " + config.host() + ":" + config.port()
                    + ": " + bind.cause().getMessage() + ". Set rpc.console.port to a free port (0 picks one), or"
                    + " turn the console off (rpc.console.enabled=false)", bind.cause());
        }
        channel = bind.channel();
        timer.scheduleAtFixedRate(stats::tick, 1, 1, TimeUnit.SECONDS);
        if (!loopback(config.host())) {
            log.warn("The web console listens on {}, beyond this host: anyone who reaches the port can read services,"
                    + " registry records and call figures (invoking and offline/online still need the token). Keep"
                    + " rpc.console.host=127.0.0.1 unless a firewall guards the port", config.host());
        }
        log.info("Web console on http://{}:{}/ ({}{})", config.host(), port(),
                access.allowed(ConsoleAccess.Action.INVOKE) ? "invoke on" : "invoke off",
                access.allowed(ConsoleAccess.Action.MUTATE) ? ", offline/online on" : ", offline/online off");
    }

    /** One JSON document of the console ({@link io.kestrel.rpc.console.KestrelConsole#document}). */
    public Map<String, Object> document(String name) {
        ConsoleApi a;
        synchronized (this) {
            a = api;
        }
        if (a == null) {
            throw new IllegalStateException("the console has not started");
        }
        return switch (name) {
            case "overview" -> a.overview();
            case "services" -> a.services();
            case "registry" -> a.registry();
            case "connections" -> a.connections();
            case "calls" -> stats.toJson();
            default -> throw new IllegalArgumentException("no console document '" + name
                    + "'; there are overview, services, registry, connections and calls");
        };
    }

    public synchronized int port() {
        return channel == null ? -1 : ((InetSocketAddress) channel.localAddress()).getPort();
    }

    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (channel != null) {
            channel.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        timer.shutdownNow();
        worker.shutdownNow();
    }

    private static boolean loopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Answers an oversized request with the console's JSON error (413) instead of Netty's bare one. */
    private static final class BoundedAggregator extends HttpObjectAggregator {
        private final int max;

        BoundedAggregator(int max) {
            super(max);
            this.max = max;
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            ctx.writeAndFlush(HttpAnswer.error(413, "the request body is larger than " + max
                    + " bytes (rpc.console.max-request-bytes)").toResponse()
                    .setStatus(io.netty.handler.codec.http.HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE))
                    .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
        }
    }
}
