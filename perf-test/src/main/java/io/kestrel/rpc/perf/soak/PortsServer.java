package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.perf.support.DirectRpc;
import io.kestrel.rpc.perf.support.HeapProbe;
import io.kestrel.rpc.perf.support.SerializationVariant;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The provider of the per-port attack soak ({@link PortSoak}), run in the server JVM by
 * {@link io.kestrel.rpc.perf.server.PerfServerMain} for system names {@code ports-<serialization>}: two
 * runtimes on 127.0.0.1 with every limit at its default, one on the native protocol (its serialization the
 * given one) and one on the dubbo protocol (its default serialization, hessian2). Each exports
 * {@link BenchmarkService} and a copy of it in group {@value #RESTRICTED_GROUP} that admits only role
 * {@value #RESTRICTED_ROLE} (nobody here has it: what a handshake probe must not be told about). A daemon
 * thread samples the heap in use and the direct memory (Netty's counter plus the JDK's direct buffers) every
 * 5 ms; {@link #answer} reports the peaks since the last report.
 */
public final class PortsServer implements BenchServer {
    public static final String PREFIX = "ports-";
    public static final String RESTRICTED_GROUP = "restricted";
    public static final String RESTRICTED_ROLE = "ops";

    private final RpcRuntime nativePort;
    private final RpcRuntime dubboPort;
    private final AtomicLong peakHeap = new AtomicLong();
    private final AtomicLong peakDirect = new AtomicLong();
    private volatile boolean sampling = true;

    private PortsServer(RpcRuntime nativePort, RpcRuntime dubboPort) {
        this.nativePort = nativePort;
        this.dubboPort = dubboPort;
        Thread t = new Thread(() -> {
            while (sampling) {
                peakHeap.accumulateAndGet(heapUsed(), Math::max);
                peakDirect.accumulateAndGet(directUsed(), Math::max);
                LockSupport.parkNanos(5_000_000);
            }
        }, "ports-memory-sampler");
        t.setDaemon(true);
        t.start();
    }

    public static PortsServer start(String serialization, int serverThreads) {
        RpcRuntime nativePort = DirectRpc.provider(SerializationVariant.of(serialization), serverThreads,
                ServerLimits.defaults(), services());
        try {
            ProtocolConfig.Builder dubbo = ProtocolConfig.builder().name(ProtocolConfig.DUBBO).host("127.0.0.1")
                    .port(0);
            if (serverThreads >= 0) {
                dubbo.threads(serverThreads);
            }
            RpcRuntime dubboPort = RpcRuntime.builder().protocol(dubbo.build()).build();
            try {
                for (ServiceConfig<?> s : services()) {
                    dubboPort.export(s);
                }
            } catch (RuntimeException e) {
                dubboPort.close();
                throw e;
            }
            return new PortsServer(nativePort, dubboPort);
        } catch (RuntimeException e) {
            nativePort.close();
            throw e;
        }
    }

    private static ServiceConfig<?>[] services() {
        return new ServiceConfig<?>[] {
            ServiceConfig.builder(BenchmarkService.class, new BenchmarkServiceImpl()).build(),
            ServiceConfig.builder(BenchmarkService.class, new BenchmarkServiceImpl()).group(RESTRICTED_GROUP)
                    .allowRole(RESTRICTED_ROLE).build()};
    }

    /** The native port (what READY reports). */
    @Override
    public int port() {
        return nativePort.boundPort();
    }

    /**
     * The answer to a control command this server knows, or null: {@code PORTS} ("PORTS dubbo=N"),
     * {@code MEMORY} and {@code MEMORY-GC} ("MEMORY heap=H direct=D peakHeap=PH peakDirect=PD metaspace=M",
     * bytes; the peaks since the previous MEMORY, which restarts them; MEMORY-GC measures the heap after
     * {@code System.gc()}).
     */
    public String answer(String command) {
        return switch (command) {
            case "PORTS" -> "PORTS dubbo=" + dubboPort.boundPort();
            case "MEMORY", "MEMORY-GC" -> {
                long heap = command.equals("MEMORY-GC") ? HeapProbe.usedAfterGc() : heapUsed();
                long direct = directUsed();
                long ph = Math.max(heap, peakHeap.getAndSet(heap));
                long pd = Math.max(direct, peakDirect.getAndSet(direct));
                yield "MEMORY heap=" + heap + " direct=" + direct + " peakHeap=" + ph + " peakDirect=" + pd
                        + " metaspace=" + metaspaceUsed();
            }
            default -> null;
        };
    }

    static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Netty's own direct memory counter (buffers it frees itself) plus the JDK's direct buffers. */
    static long directUsed() {
        long netty = Math.max(0, PlatformDependent.usedDirectMemory());
        long jdk = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                jdk += pool.getMemoryUsed();
            }
        }
        return netty + jdk;
    }

    static long metaspaceUsed() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().equals("Metaspace")) {
                return pool.getUsage().getUsed();
            }
        }
        return -1;
    }

    @Override
    public void close() {
        sampling = false;
        try {
            dubboPort.close();
        } finally {
            nativePort.close();
        }
    }
}
