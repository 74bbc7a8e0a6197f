package io.kestrel.rpc.perf.dubbo;

import io.kestrel.rpc.perf.support.BenchmarkService;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * The server JVM of perf-test's stock Dubbo systems: exports {@link BenchmarkService} with stock Dubbo on the
 * dubbo protocol (no registry), then speaks perf-test's server line protocol on stdin/stdout:
 *
 * <pre>
 * stdout: READY port=NNNN | FAILED reason
 * stdin:  ALLOC -> "ALLOC bytes=N" (bytes allocated so far by all live threads) | STOP (or end of input)
 * </pre>
 *
 * <p>Arguments: {@code SERIALIZATION THREADS} (Dubbo's name, e.g. hessian2; business threads, Dubbo's default 200
 * when negative). Watchdog: exits after {@code kestrel.perf.maxSeconds} (1800) in case the runner vanished.
 */
public final class StockDubboServerMain {
    private StockDubboServerMain() {
    }

    public static void main(String[] args) throws Exception {
        StockDubboClient.preferFastjson2();
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        String serialization = args.length > 0 ? args[0] : "hessian2";
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : -1;
        startWatchdog(Long.getLong("kestrel.perf.maxSeconds", 1800));
        DubboBootstrap bootstrap = DubboBootstrap.newInstance();
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        try {
            ApplicationConfig application = new ApplicationConfig("perf-stock-dubbo-provider");
            application.setQosEnable(false);
            ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
            protocol.setHost("127.0.0.1");
            protocol.setSerialization(serialization);
            protocol.setPreferSerialization(serialization);
            if (threads > 0) {
                protocol.setThreads(threads);
            }
            ServiceConfig<BenchmarkService> service = new ServiceConfig<>();
            service.setInterface(BenchmarkService.class);
            service.setRef(new StockBenchmarkServiceImpl());
            bootstrap.application(application).registry(new RegistryConfig(RegistryConfig.NO_AVAILABLE))
                    .protocol(protocol).service(service).start();
        } catch (Throwable t) {
            t.printStackTrace();
            out.println("FAILED " + String.valueOf(t).replace('\n', ' '));
            System.exit(2);
            return;
        }
        out.println("READY port=" + port);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String cmd = line.trim();
                if (cmd.equals("ALLOC")) {
                    out.println("ALLOC bytes=" + totalAllocatedBytes());
                } else if (cmd.equals("STOP")) {
                    break;
                }
            }
        } finally {
            bootstrap.stop();
        }
        out.println("STOPPED");
        System.exit(0);
    }

    /** Bytes allocated so far by all live threads, -1 if the JVM cannot tell. */
    static long totalAllocatedBytes() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (!threads.isThreadAllocatedMemorySupported()) {
            return -1;
        }
        long sum = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            if (bytes > 0) {
                sum += bytes;
            }
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
            System.err.println("stock Dubbo perf server: exceeded " + maxSeconds + " s, exiting");
            Runtime.getRuntime().halt(3);
        }, "perf-server-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
