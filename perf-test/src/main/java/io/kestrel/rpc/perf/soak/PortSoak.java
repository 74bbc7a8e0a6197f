package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.server.ClasspathSnapshot;
import io.kestrel.rpc.perf.server.ServerLaunch;
import io.kestrel.rpc.perf.server.ServerProcess;
import io.kestrel.rpc.perf.soak.attack.AttackKind;
import io.kestrel.rpc.perf.soak.attack.AttackResult;
import io.kestrel.rpc.perf.soak.attack.PortAttacks;
import io.kestrel.rpc.perf.soak.attack.PortFrames;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The per-port attack soak ({@code run.sh soak --attacks ports}): for each protocol of {@code --protocols}
 * and each per-port attack, a fresh provider JVM ({@link PortsServer}: native and dubbo ports, every limit at
 * its default, {@code -Xmx512m -XX:MaxDirectMemorySize=512m}) and a well-behaved client ({@link SteadyClient},
 * once a second on a long-lived reference and on a fresh connection). The client calls 3 s before the attack,
 * during it ({@code --minutes}) and after it ({@code --after}); the provider's peak heap in use and direct
 * memory are taken for the attack's window and for the time after, then heap, direct memory and metaspace
 * after a GC. Writes {@code ports-report.md} (a row per attack and protocol). Exit code 0 only if the client
 * was served every time during and after every attack, no provider logged an OutOfMemoryError, and no
 * handshake probe was told about a service.
 */
final class PortSoak {
    private static final long BEFORE_MILLIS = 3_000;

    private PortSoak() {
    }

    /** A MEMORY answer: bytes. */
    record Memory(long heap, long direct, long peakHeap, long peakDirect, long metaspace) {
        static Memory ask(ServerProcess server, String command) throws IOException, InterruptedException {
            Map<String, Long> v = new HashMap<>();
            for (String pair : server.ask(command, "MEMORY").split(" ")) {
                int eq = pair.indexOf('=');
                v.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
            }
            return new Memory(v.get("heap"), v.get("direct"), v.get("peakHeap"), v.get("peakDirect"),
                    v.get("metaspace"));
        }

        String peaks() {
            return SoakReport.mb(peakHeap) + " + " + SoakReport.mb(peakDirect);
        }

        String now() {
            return SoakReport.mb(heap) + " + " + SoakReport.mb(direct);
        }
    }

    /** One attack against one port. Memory figures are null when the provider did not answer. */
    record Row(AttackKind kind, String protocol, SteadyClient.Counts before, SteadyClient.Counts during,
            SteadyClient.Counts after, Memory base, Memory peakDuring, Memory peakAfter, Memory afterGc,
            long outOfMemoryErrors, AttackResult attack, String problem) {
        boolean passed() {
            return during.calls() > 0 && during.served() == during.calls() && after.served() == after.calls()
                    && after.calls() > 0 && outOfMemoryErrors == 0 && afterGc != null && attack.met();
        }
    }

    static int run(SoakOptions o, PrintStream console) throws Exception {
        Files.createDirectories(o.outputDir());
        Instant startedAt = Instant.now();
        console.printf(Locale.ROOT, "Per-port attacks %s on %s: %s each, then %d s after; provider with default"
                + " limits, -Xmx512m -XX:MaxDirectMemorySize=512m%n", o.attacks().stream().map(k -> k.label).toList(),
                o.protocols(), SoakReport.minutes(o.window()), o.after().toSeconds());
        List<Row> rows = new ArrayList<>();
        List<String> failedToRun = new ArrayList<>();
        try (ClasspathSnapshot classpath = ClasspathSnapshot.ofCurrentJvm()) {
            for (String protocol : o.protocols()) {
                for (AttackKind kind : o.attacks()) {
                    try {
                        Row row = one(o, classpath, protocol, kind, console);
                        rows.add(row);
                        console.println("  " + line(row));
                    } catch (IOException | RuntimeException e) {
                        console.printf("  %s on %s did not run: %s%n", kind.label, protocol, e);
                        failedToRun.add(kind.label + " on " + protocol + ": " + e);
                    }
                }
            }
        }
        boolean passed = failedToRun.isEmpty() && rows.stream().allMatch(Row::passed);
        String report = markdown(o, startedAt, rows, failedToRun, passed);
        Path file = o.outputDir().resolve("ports-report.md");
        Files.writeString(file, report, StandardCharsets.UTF_8);
        console.println();
        console.print(report);
        console.printf("Report: %s%n", file);
        return passed ? 0 : 1;
    }

    private static Row one(SoakOptions o, ClasspathSnapshot classpath, String protocol, AttackKind kind,
            PrintStream console) throws Exception {
        Path log = o.outputDir().resolve("server-ports-" + protocol + "-" + kind.label + ".log");
        Files.deleteIfExists(log);
        long maxSeconds = o.window().toSeconds() + o.after().toSeconds() + 300;
        ServerLaunch launch = new ServerLaunch(PortsServer.PREFIX + "fory",
                SystemSettings.DEFAULTS.withCallTimeout(o.callTimeout()), maxSeconds, "");
        console.printf("%s on %s: provider starting (log %s)%n", kind.label, protocol, log);
        try (ServerProcess server = ServerProcess.start(launch, classpath, List.of("-XX:MaxDirectMemorySize=512m"),
                log)) {
            int port = protocol.equals("native") ? server.port()
                    : Integer.parseInt(server.ask("PORTS", "PORTS dubbo="));
            PortAttacks attack = PortAttacks.prepare(kind, PortFrames.of(protocol), port);
            Memory base = null;
            Memory during = null;
            Memory afterPeak = null;
            Memory afterGc = null;
            String problem = "";
            try (SteadyClient client = new SteadyClient(protocol, port, o.callTimeout())) {
                client.start();
                Thread.sleep(BEFORE_MILLIS);
                try {
                    base = Memory.ask(server, "MEMORY-GC");
                    Memory.ask(server, "MEMORY"); // restarts the peaks
                } catch (IOException e) {
                    problem = e.getMessage();
                }
                client.phase("during");
                attack.start();
                Thread.sleep(o.window().toMillis());
                try {
                    during = Memory.ask(server, "MEMORY");
                } catch (IOException e) {
                    problem = e.getMessage();
                }
                attack.stop();
                client.phase("after");
                Thread.sleep(o.after().toMillis());
                client.phase("done");
                try {
                    afterPeak = Memory.ask(server, "MEMORY");
                    afterGc = Memory.ask(server, "MEMORY-GC");
                } catch (IOException e) {
                    problem = e.getMessage();
                }
                client.close();
                return new Row(kind, protocol, client.counts("before"), client.counts("during"),
                        client.counts("after"), base, during, afterPeak, afterGc, outOfMemoryErrors(log),
                        attack.result(), problem);
            } finally {
                attack.stop();
            }
        }
    }

    private static long outOfMemoryErrors(Path log) throws IOException {
        try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains("OutOfMemoryError")).count();
        } catch (java.io.UncheckedIOException e) {
            return -1;
        }
    }

    private static String line(Row r) {
        return String.format(Locale.ROOT, "%s on %s: served %s during, %s after; peak heap + direct during %s,"
                + " after %s; after GC %s%s", r.kind().label, r.protocol(), r.during(), r.after(),
                r.peakDuring() == null ? "?" : r.peakDuring().peaks(), r.peakAfter() == null ? "?"
                        : r.peakAfter().peaks(), r.afterGc() == null ? "?" : r.afterGc().now(),
                r.passed() ? "" : " (FAILED" + firstFailure(r) + ")");
    }

    private static String firstFailure(Row r) {
        for (SteadyClient.Counts c : List.of(r.during(), r.after())) {
            if (!c.firstFailure().isEmpty()) {
                return ": " + c.firstFailure();
            }
        }
        return r.problem().isEmpty() ? "" : ": " + r.problem();
    }

    static String markdown(SoakOptions o, Instant startedAt, List<Row> rows, List<String> failedToRun,
            boolean passed) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Per-port attack soak\n\n");
        sb.append("Started ").append(startedAt).append("; each attack ").append(SoakReport.minutes(o.window()))
                .append(", then ").append(o.after().toSeconds()).append(" s without it. Provider: a fresh JVM per"
                + " row, every limit at its default, -Xmx512m -XX:MaxDirectMemorySize=512m, native port (fory) and"
                + " dubbo port (hessian2). Well-behaved client: echo once a second on a long-lived reference and"
                + " once on a fresh connection (served/calls). Memory: heap in use + direct memory (Netty's"
                + " counter plus the JDK's direct buffers), peak sampled every 5 ms; after GC at the end.\n\n");
        sb.append("| attack | port | served during | served after | peak heap + direct during | peak after"
                + " | after GC (heap + direct) | metaspace growth | OOM in log | attack's requests / answers"
                + " / closed by provider |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.kind().label).append(" | ").append(r.protocol()).append(" | ")
                    .append(r.during()).append(" | ").append(r.after()).append(" | ")
                    .append(r.peakDuring() == null ? "?" : r.peakDuring().peaks()).append(" | ")
                    .append(r.peakAfter() == null ? "?" : r.peakAfter().peaks()).append(" | ")
                    .append(r.afterGc() == null ? "?" : r.afterGc().now()).append(" | ")
                    .append(r.afterGc() == null || r.base() == null ? "?"
                            : SoakReport.mb(r.afterGc().metaspace() - r.base().metaspace())).append(" | ")
                    .append(r.outOfMemoryErrors()).append(" | ")
                    .append(r.attack().requests()).append(" / ").append(r.attack().answers()).append(" / ")
                    .append(r.attack().closedByProvider()).append(" |\n");
        }
        sb.append("\n");
        for (Row r : rows) {
            List<String> notes = new ArrayList<>();
            List<SteadyClient.Counts> phases = List.of(r.before(), r.during(), r.after());
            for (int i = 0; i < phases.size(); i++) {
                if (!phases.get(i).firstFailure().isEmpty()) {
                    notes.add("client failure " + List.of("before the attack (" + r.before() + ")", "during", "after")
                            .get(i) + ": " + phases.get(i).firstFailure());
                }
            }
            if (!r.problem().isEmpty()) {
                notes.add("provider: " + r.problem());
            }
            if (r.attack().errors() > 0) {
                notes.add(r.attack().errors() + " attacker-side errors, first: " + r.attack().firstError());
            }
            if (!r.attack().met()) {
                notes.add("not met: " + r.attack().expectation());
            }
            if (!notes.isEmpty()) {
                sb.append("- ").append(r.kind().label).append(" on ").append(r.protocol()).append(": ")
                        .append(String.join("; ", notes)).append("\n");
            }
        }
        for (String f : failedToRun) {
            sb.append("- did not run: ").append(f).append("\n");
        }
        sb.append("\nAttacks: \n\n");
        for (AttackKind k : o.attacks()) {
            sb.append("- `").append(k.label).append("`: ").append(k.description).append("\n");
        }
        sb.append("\n**").append(passed ? "PASSED" : "FAILED").append("**\n");
        return sb.toString();
    }
}
