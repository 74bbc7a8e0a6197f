package io.kestrel.rpc.perf.server;

import io.kestrel.rpc.perf.compare.system.BenchSystem;
import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.soak.PortsServer;
import io.kestrel.rpc.perf.soak.SoakServer;
import io.kestrel.rpc.perf.streams.StreamSystems;
import io.kestrel.rpc.perf.support.HeapProbe;
import io.kestrel.rpc.perf.support.ProcessCpu;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.LoggerFactory;

/**
 * Entry point of the server JVM that {@link ServerProcess} starts. Starts one system's server, then
 * speaks a line protocol with the runner:
 *
 * <pre>
 * stdout: READY port=NNNN          once, when the server accepts connections
 *         FAILED reason            instead of READY, if the server could not start
 * stdin:  ALLOC                    answered with "ALLOC bytes=N": bytes allocated so far by all live threads
 *         CPU                      answered with "CPU nanos=N": CPU time used so far by the process (-1: not known)
 *         HEAP                     answered with "HEAP used=N inflight=M": used heap bytes after System.gc()
 *                                  ({@link HeapProbe}) and the provider's in-flight calls (-1: not known)
 *         INFLIGHT                 answered with "INFLIGHT n=M": the in-flight calls alone, without a GC
 *         LIMITS                   answered with "LIMITS memory=N max=M refused=R connections=C budget=B": the
 *                                  soak provider's budgeted memory in use now and at most since the last
 *                                  LIMITS, connections refused so far, connections open, the budget (all -1:
 *                                  not known)
 *         PORTS, MEMORY, MEMORY-GC the per-port soak provider's dubbo port and memory figures ({@link PortsServer#answer})
 *         STOP (or end of input)   stops the server and exits
 * </pre>
 *
 * Logs (SLF4J, stderr) go to the log file the runner names. A watchdog exits the JVM after {@code --max-seconds} (default 1800) in case the runner vanished
 * without closing stdin.
 *
 * <p>System names are those of {@link BenchSystems}, plus {@code soak-<serialization>} for the
 * soak mode's provider ({@link SoakServer}), the only one that knows its in-flight count, and
 * {@code ports-<serialization>} for the per-port attack soak's provider ({@link PortsServer}), and
 * {@code stream-<name>} for a system of the streams benchmark ({@link StreamSystems}).
 *
 * <p>Arguments: those of {@link ServerLaunch}.
 */
public final class PerfServerMain {
    private PerfServerMain() {
    }

    public static void main(String[] args) throws Exception {
        ServerLaunch launch = ServerLaunch.parse(args);
        String system = launch.system();
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        startWatchdog(launch.maxSeconds());

        SystemSettings settings = launch.settings();
        BenchServer server;
        try {
            if (system.startsWith(PortsServer.PREFIX)) {
                server = PortsServer.start(system.substring(PortsServer.PREFIX.length()), settings.rpcServerThreads());
            } else if (system.startsWith(StreamSystems.SERVER_PREFIX)) {
                server = StreamSystems.create(system.substring(StreamSystems.SERVER_PREFIX.length())).startServer();
            } else if (system.startsWith(SoakServer.PREFIX)) {
                server = SoakServer.start(system.substring(SoakServer.PREFIX.length()), settings,
                        LimitsSpec.parse(launch.limits()));
            } else {
                BenchSystem bench = BenchSystems.create(system, settings);
                String unavailable = bench.unavailableReason();
                if (unavailable != null) {
                    out.println("FAILED " + unavailable);
                    System.exit(2);
                    return;
                }
                server = bench.startServer();
            }
        } catch (Throwable t) {
            LoggerFactory.getLogger(PerfServerMain.class).error("Server for {} did not start", system, t);
            out.println("FAILED " + String.valueOf(t).replace('\n', ' '));
            System.exit(2);
            return;
        }
        out.println("READY port=" + server.port());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String cmd = line.trim();
                if (cmd.equals("ALLOC")) {
                    out.println("ALLOC bytes=" + server.allocatedBytes());
                } else if (cmd.equals("CPU")) {
                    out.println("CPU nanos=" + ProcessCpu.processCpuNanos());
                } else if (cmd.equals("HEAP")) {
                    long used = HeapProbe.usedAfterGc();
                    out.println("HEAP used=" + used + " inflight=" + inFlight(server));
                } else if (cmd.equals("INFLIGHT")) {
                    out.println("INFLIGHT n=" + inFlight(server));
                } else if (cmd.equals("LIMITS")) {
                    out.println(server instanceof SoakServer soak ? soak.limitsLine()
                            : "LIMITS memory=-1 max=-1 refused=-1 connections=-1 budget=-1");
                } else if (cmd.equals("STOP")) {
                    break;
                } else if (server instanceof PortsServer ports) {
                    String answer = ports.answer(cmd); // null: not a command of its own
                    if (answer != null) {
                        out.println(answer);
                    }
                }
            }
        } finally {
            server.close();
        }
        out.println("STOPPED");
        System.exit(0);
    }

    private static int inFlight(BenchServer server) {
        return server instanceof SoakServer soak ? soak.inFlight() : -1;
    }

    private static void startWatchdog(long maxSeconds) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(maxSeconds * 1000);
            } catch (InterruptedException e) {
                return;
            }
            System.err.println("perf server: exceeded --max-seconds " + maxSeconds + ", exiting");
            Runtime.getRuntime().halt(3);
        }, "perf-server-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
