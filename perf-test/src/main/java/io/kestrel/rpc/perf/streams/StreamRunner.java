package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.perf.compare.system.IsolatedModule;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.server.ClasspathSnapshot;
import io.kestrel.rpc.perf.server.ServerLaunch;
import io.kestrel.rpc.perf.server.ServerProcess;
import io.kestrel.rpc.perf.support.ProcessCpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Measures the streams systems: per round, every system in turn (the order reversed every other round), each with a
 * server JVM of its own and its client in this JVM. Per system: a warm-up pass then a measured pass of server
 * streaming and of ping-pong, and for the framework the unary probe alone and beside a running server stream.
 */
final class StreamRunner {
    private final StreamOptions options;
    private final Consumer<String> progress;

    StreamRunner(StreamOptions options, Consumer<String> progress) {
        this.options = options;
        this.progress = progress;
    }

    /** Every round's rows, in the order measured. */
    List<StreamRound> run() throws Exception {
        Files.createDirectories(options.outputDir());
        List<StreamSystem> systems = StreamSystems.parse(options.systems());
        List<StreamRound> rows = new ArrayList<>();
        try (ClasspathSnapshot classpath = ClasspathSnapshot.ofCurrentJvm()) {
            for (int round = 1; round <= options.rounds(); round++) {
                List<StreamSystem> order = new ArrayList<>(systems);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (StreamSystem system : order) {
                    progress.accept("round " + round + "/" + options.rounds() + ": " + system.name());
                    StreamRound row = measure(system, round, classpath);
                    progress.accept(String.format(java.util.Locale.ROOT,
                            "  feed %,.0f msgs/s, %.1f B/msg; ping-pong %,.0f trips/s; unary p99 %.0f / %.0f us",
                            row.feedRate(), row.feedWirePerMessage(), row.pingRate(), row.unaryP99Alone(),
                            row.unaryP99WithStream()));
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** A server JVM of either kind. */
    private interface Server extends AutoCloseable {
        int port();

        long cpuNanos() throws IOException, InterruptedException;

        @Override
        void close();
    }

    private Server start(StreamSystem system, int round, ClasspathSnapshot classpath) throws Exception {
        IsolatedModule.Server own = system.startOwnServer();
        if (own != null) {
            return new Server() {
                public int port() {
                    return own.port();
                }

                public long cpuNanos() {
                    return own.cpuNanos();
                }

                public void close() {
                    own.close();
                }
            };
        }
        Path log = options.outputDir().resolve("server-" + system.name() + "-round" + round + ".log");
        ServerProcess p = ServerProcess.start(new ServerLaunch(StreamSystems.SERVER_PREFIX + system.name(),
                SystemSettings.DEFAULTS.withCallTimeout(options.timeout()), options.timeout().toSeconds() * 20 + 600),
                classpath, options.serverJvmArgs(), log);
        return new Server() {
            public int port() {
                return p.port();
            }

            public long cpuNanos() throws IOException, InterruptedException {
                return p.cpuNanos();
            }

            public void close() {
                p.close();
            }
        };
    }

    private StreamRound measure(StreamSystem system, int round, ClasspathSnapshot classpath) throws Exception {
        int streams = options.streams();
        try (Server server = start(system, round, classpath);
                StreamClient client = system.openClient("127.0.0.1", server.port(), options.timeout(),
                        options.payload())) {
            client.serverStreams(streams, StreamOptions.warmup(options.messages()));
            Pass feed = pass(client, server, () -> client.serverStreams(streams, options.messages()));
            client.pingPong(streams, StreamOptions.warmup(options.trips()));
            Pass ping = pass(client, server, () -> client.pingPong(streams, options.trips()));
            double alone = Double.NaN;
            double beside = Double.NaN;
            StreamClient.UnaryProbe probe = client.unary();
            if (probe != null) {
                p99Micros(probe, StreamOptions.warmup(options.unaryCalls()));
                alone = p99Micros(probe, options.unaryCalls());
                try (AutoCloseable stream = probe.startStream()) {
                    TimeUnit.MILLISECONDS.sleep(200); // the stream under way before the first timed call
                    beside = p99Micros(probe, options.unaryCalls());
                }
            }
            return new StreamRound(system.name(), round, system.messageBytes(options.payload()), feed.units,
                    feed.nanos, feed.bytes, feed.clientCpu, feed.serverCpu, ping.units, ping.nanos, ping.bytes,
                    ping.clientCpu, ping.serverCpu, alone, beside);
        }
    }

    private interface Workload {
        long run() throws Exception;
    }

    private record Pass(long units, long nanos, long bytes, long clientCpu, long serverCpu) {
    }

    private static Pass pass(StreamClient client, Server server, Workload workload) throws Exception {
        long bytes0 = client.bytesRead() + client.bytesWritten();
        long serverCpu0 = server.cpuNanos();
        long cpu0 = ProcessCpu.processCpuNanos();
        long t0 = System.nanoTime();
        long units = workload.run();
        long nanos = System.nanoTime() - t0;
        long cpu = ProcessCpu.processCpuNanos();
        long serverCpu = server.cpuNanos();
        long bytes = client.bytesRead() + client.bytesWritten() - bytes0;
        return new Pass(units, nanos, bytes, cpu0 < 0 ? -1 : cpu - cpu0,
                serverCpu0 < 0 || serverCpu < 0 ? -1 : serverCpu - serverCpu0);
    }

    /** {@code calls} unary calls one after the other; their p99 in microseconds. */
    private static double p99Micros(StreamClient.UnaryProbe probe, int calls) throws Exception {
        Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        for (int i = 0; i < calls; i++) {
            long t0 = System.nanoTime();
            probe.call();
            h.recordValue(Math.min(System.nanoTime() - t0, h.getHighestTrackableValue()));
        }
        return h.getValueAtPercentile(99) / 1000.0;
    }
}
