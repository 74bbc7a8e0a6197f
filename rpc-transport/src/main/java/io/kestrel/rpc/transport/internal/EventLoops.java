package io.kestrel.rpc.transport.internal;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.Version;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Creates the event-loop groups of the server and the client on whichever Netty line is on the class
 * path: Netty's native epoll transport where it is on the class path and loads (see {@link #TRANSPORT_PROPERTY}),
 * else NIO. Netty 4.2 has {@code MultiThreadIoEventLoopGroup} with an {@code IoHandler} factory (its
 * {@code NioEventLoopGroup} is deprecated); Netty 4.1, which Spring Boot 3.x manages, has only
 * {@code NioEventLoopGroup}. The 4.2 types are referenced from {@link Netty42} alone, a class that is
 * loaded only when they are present, so this class links on both lines.
 */
public final class EventLoops {
    private static final boolean NETTY_42 = present("io.netty.channel.MultiThreadIoEventLoopGroup")
            && present("io.netty.channel.nio.NioIoHandler");
    /**
     * System property: {@code auto} (the default) uses Netty's native epoll transport when it is on the class path
     * and loads (Linux, Netty 4.2), else NIO; {@code nio} keeps the JDK's selector; {@code epoll} asks for epoll and
     * says why when it cannot be had.
     */
    public static final String TRANSPORT_PROPERTY = "kestrel.rpc.transport";
    private static final boolean EPOLL = epoll(System.getProperty(TRANSPORT_PROPERTY));

    private EventLoops() {
    }

    /**
     * A group of {@code threads} event loops (epoll or NIO, as {@link #transportName}) whose threads are daemons named
     * {@code name-N}; its channels are {@link #socketChannel} and {@link #serverChannel}.
     */
    public static EventLoopGroup group(int threads, String name) {
        NettyMemory.warnIfFreeingIsExpensive();
        ThreadFactory factory = new DefaultThreadFactory(name, true);
        return EPOLL ? Native.group(threads, factory) : NETTY_42 ? Netty42.nio(threads, factory) : nio41(threads, factory);
    }

    /** The socket channel type of the groups {@link #group} makes. */
    public static Class<? extends io.netty.channel.socket.SocketChannel> socketChannel() {
        return EPOLL ? Native.socket() : io.netty.channel.socket.nio.NioSocketChannel.class;
    }

    /** The listening channel type of the groups {@link #group} makes. */
    public static Class<? extends io.netty.channel.socket.ServerSocketChannel> serverChannel() {
        return EPOLL ? Native.server() : io.netty.channel.socket.nio.NioServerSocketChannel.class;
    }

    /**
     * Runs {@code task} on {@code loop} after the loop's next poll of its sockets: a task scheduled with no delay, which
     * the loop takes only after reading what is ready (a task it queues with {@code execute} runs before that, and a
     * queue of such tasks that never empties keeps the loop from reading). Should the loop shut down before that turn,
     * it cancels the task and {@code ifCancelled} runs (on the loop) instead.
     *
     * @return false, and nothing is scheduled, when the loop is shutting down or refuses the task
     */
    public static boolean runAfterReads(io.netty.util.concurrent.EventExecutor loop, Runnable task,
            Runnable ifCancelled) {
        if (loop.isShuttingDown()) {
            return false;
        }
        try {
            loop.schedule(task, 0, TimeUnit.NANOSECONDS).addListener(f -> {
                if (f.isCancelled()) {
                    ifCancelled.run();
                }
            });
            return true;
        } catch (RejectedExecutionException shuttingDown) {
            return false;
        }
    }

    /** "epoll" or "nio": what the groups {@link #group} makes use. */
    public static String transportName() {
        return EPOLL ? "epoll" : "nio";
    }

    /**
     * Runs {@code task} on {@code channel}'s event loop and waits (up to {@code timeoutMillis}) until it ran, so what it
     * queues there comes ahead of a close submitted afterwards; runs it here when already on that loop or when the loop
     * is gone (nothing will be written then anyway).
     */
    public static void runAndWait(Channel channel, Runnable task, long timeoutMillis) {
        if (channel.eventLoop().inEventLoop()) {
            task.run();
            return;
        }
        try {
            channel.eventLoop().submit(task).awaitUninterruptibly(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    /** Whether the 4.2 event-loop API is in use (false on Netty 4.1). */
    public static boolean usesNetty42Api() {
        return NETTY_42;
    }

    /** The version of netty-transport found on the class path, e.g. {@code 4.1.135.Final}, or "unknown". */
    public static String nettyVersion() {
        Map<String, Version> versions = Version.identify(EventLoops.class.getClassLoader());
        Version v = versions.get("netty-transport");
        return v != null ? v.artifactVersion() : "unknown";
    }

    @SuppressWarnings("deprecation") // deprecated in 4.2 only, where it is not used
    private static EventLoopGroup nio41(int threads, ThreadFactory factory) {
        return new NioEventLoopGroup(threads, factory);
    }

    /** Whether the groups use epoll, for a value of {@value #TRANSPORT_PROPERTY}; a wrong value is logged. */
    static boolean epoll(String value) {
        String v = value == null || value.isBlank() ? "auto" : value.trim().toLowerCase(java.util.Locale.ROOT);
        switch (v) {
            case "nio":
                return false; // the native library is not even loaded
            case "auto":
                return epollLoads();
            case "epoll":
                boolean loads = epollLoads();
                if (!loads) {
                    org.slf4j.LoggerFactory.getLogger(EventLoops.class).warn("-D{}=epoll, but Netty's native epoll"
                            + " transport is not available here ({}); using NIO. It needs Linux, Netty 4.2 and"
                            + " io.netty:netty-transport-native-epoll with this platform's classifier (linux-x86_64 or"
                            + " linux-aarch_64) on the class path", TRANSPORT_PROPERTY, whyNoEpoll());
                }
                return loads;
            default:
                org.slf4j.LoggerFactory.getLogger(EventLoops.class).error("-D{} must be auto, epoll or nio, was '{}';"
                        + " using auto", TRANSPORT_PROPERTY, v.length() > 40 ? v.substring(0, 40) + "..." : v);
                return epollLoads();
        }
    }

    /** Netty 4.2 with the epoll classes, whose native library loads here. */
    private static boolean epollLoads() {
        return NETTY_42 && present("io.netty.channel.epoll.Epoll") && Native.available();
    }

    private static String whyNoEpoll() {
        if (!NETTY_42) {
            return "Netty " + nettyVersion() + " is not 4.2";
        }
        if (!present("io.netty.channel.epoll.Epoll")) {
            return "netty-transport-classes-epoll is not on the class path";
        }
        return String.valueOf(Native.cause());
    }

    /** Whether the class {@code name} can be loaded by the loader of this class. */
    static boolean present(String name) {
        try {
            Class.forName(name, false, EventLoops.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Netty's native epoll transport; loaded only when its classes are present. */
    private static final class Native {
        static boolean available() {
            try {
                return io.netty.channel.epoll.Epoll.isAvailable();
            } catch (LinkageError e) {
                return false;
            }
        }

        static Throwable cause() {
            return io.netty.channel.epoll.Epoll.unavailabilityCause();
        }

        static EventLoopGroup group(int threads, ThreadFactory factory) {
            return new io.netty.channel.MultiThreadIoEventLoopGroup(threads, factory,
                    io.netty.channel.epoll.EpollIoHandler.newFactory());
        }

        static Class<? extends io.netty.channel.socket.SocketChannel> socket() {
            return io.netty.channel.epoll.EpollSocketChannel.class;
        }

        static Class<? extends io.netty.channel.socket.ServerSocketChannel> server() {
            return io.netty.channel.epoll.EpollServerSocketChannel.class;
        }
    }

    /** The Netty 4.2 form; loaded only when {@link #NETTY_42} is true. */
    private static final class Netty42 {
        static EventLoopGroup nio(int threads, ThreadFactory factory) {
            return new io.netty.channel.MultiThreadIoEventLoopGroup(threads, factory,
                    io.netty.channel.nio.NioIoHandler.newFactory());
        }
    }
}
