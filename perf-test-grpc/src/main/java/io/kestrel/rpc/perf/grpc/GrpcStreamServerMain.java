package io.kestrel.rpc.perf.grpc;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The server JVM of perf-test's {@code grpc} streams system: grpc-java with its defaults (handlers on its cached
 * thread pool, automatic flow control) on NIO event loops, as the framework's transport uses, plaintext HTTP/2 on
 * 127.0.0.1; then perf-test's server line protocol on stdin/stdout:
 *
 * <pre>
 * stdout: READY port=NNNN | FAILED reason
 * stdin:  ALLOC -> "ALLOC bytes=N" (bytes allocated so far by all live threads)
 *         CPU   -> "CPU nanos=N" (CPU time of the process so far, -1: not known)
 *         STOP (or end of input)
 * </pre>
 *
 * <p>Feed sends while the call is ready ({@code isReady}/{@code onReadyHandler}, gRPC's way to respect the
 * receiver's window), so a server stream never buffers more than grpc's flow-control window. Watchdog: exits after
 * {@code kestrel.perf.maxSeconds} (1800) in case the runner vanished.
 */
public final class GrpcStreamServerMain {
    private GrpcStreamServerMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        startWatchdog(Long.getLong("kestrel.perf.maxSeconds", 1800));
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup(Runtime.getRuntime().availableProcessors());
        Server server;
        try {
            ServerServiceDefinition service = ServerServiceDefinition.builder(ByteMethods.SERVICE)
                    .addMethod(ByteMethods.FEED, ServerCalls.asyncServerStreamingCall(GrpcStreamServerMain::feed))
                    .addMethod(ByteMethods.ECHO, ServerCalls.asyncBidiStreamingCall(GrpcStreamServerMain::echo))
                    .build();
            server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                    .channelType(NioServerSocketChannel.class).bossEventLoopGroup(boss).workerEventLoopGroup(workers)
                    .addService(service).build().start();
        } catch (Throwable t) {
            t.printStackTrace();
            out.println("FAILED " + String.valueOf(t).replace('\n', ' '));
            System.exit(2);
            return;
        }
        out.println("READY port=" + server.getPort());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String cmd = line.trim();
                if (cmd.equals("ALLOC")) {
                    out.println("ALLOC bytes=" + totalAllocatedBytes());
                } else if (cmd.equals("CPU")) {
                    out.println("CPU nanos=" + processCpuNanos());
                } else if (cmd.equals("STOP")) {
                    break;
                }
            }
        } finally {
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        out.println("STOPPED");
        System.exit(0);
    }

    /** Sends {@code count} messages while the consumer's window lets it, then completes. */
    private static void feed(byte[] request, StreamObserver<byte[]> responses) {
        ByteBuffer r = ByteBuffer.wrap(request);
        int count = r.getInt();
        int payload = r.getInt();
        ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) responses;
        call.setOnCancelHandler(() -> { }); // a cancelled feed stops at its next isReady() (false once cancelled)
        call.setOnReadyHandler(new Runnable() {
            long next;
            boolean done;

            @Override
            public void run() {
                while (next < count && call.isReady()) {
                    call.onNext(ByteMethods.message(next++, payload));
                }
                if (next == count && !done) {
                    done = true;
                    call.onCompleted();
                }
            }
        });
    }

    /** Answers each message with itself. */
    private static StreamObserver<byte[]> echo(StreamObserver<byte[]> responses) {
        return new StreamObserver<>() {
            @Override
            public void onNext(byte[] value) {
                responses.onNext(value);
            }

            @Override
            public void onError(Throwable error) {
                // the consumer went away; nothing to answer
            }

            @Override
            public void onCompleted() {
                responses.onCompleted();
            }
        };
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    /** Bytes allocated so far by all live threads, -1 if the JVM cannot tell. */
    private static long totalAllocatedBytes() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (!threads.isThreadAllocatedMemorySupported()) {
            return -1;
        }
        long sum = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(bytes, 0);
        }
        return sum;
    }

    private static void startWatchdog(long maxSeconds) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(maxSeconds * 1000);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("grpc perf server: exceeded " + maxSeconds + " s, exiting");
            Runtime.getRuntime().halt(3);
        }, "perf-server-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
