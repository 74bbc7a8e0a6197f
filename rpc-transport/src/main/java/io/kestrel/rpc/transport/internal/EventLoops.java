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
 * Creates the NIO event-loop groups of the server and the client on whichever Netty line is on the class
 * path. Netty 4.2 has {@code MultiThreadIoEventLoopGroup} with an {@code IoHandler} factory (its
 * {@code NioEventLoopGroup} is deprecated); Netty 4.1, which Spring Boot 3.x manages, has only
 * {@code NioEventLoopGroup}. The 4.2 types are referenced from {@link Netty42} alone, a class that is
 * loaded only when they are present, so this class links on both lines.
 */
public final class EventLoops {
    private static final boolean NETTY_42 = present("io.netty.channel.MultiThreadIoEventLoopGroup")
            && present("io.netty.channel.nio.NioIoHandler");

    private EventLoops() {
    }

    /** A group of {@code threads} NIO event loops whose threads are daemons named {@code name-N}. */
    public static EventLoopGroup nio(int threads, String name) {
        NettyMemory.warnIfFreeingIsExpensive();
        ThreadFactory factory = new DefaultThreadFactory(name, true);
        return NETTY_42 ? Netty42.nio(threads, factory) : nio41(threads, factory);
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

    /** Whether the class {@code name} can be loaded by the loader of this class. */
    static boolean present(String name) {
        try {
            Class.forName(name, false, EventLoops.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
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
