package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.report.JdkComparison;
import io.kestrel.rpc.perf.report.PerfReport;
import io.kestrel.rpc.perf.report.ReportWriter;
import io.kestrel.rpc.perf.report.ResultsCsv;
import io.kestrel.rpc.perf.report.Rounds;
import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.server.ClasspathSnapshot;
import io.kestrel.rpc.perf.server.ServerProcess;
import io.kestrel.rpc.perf.support.JvmFlags;
import io.kestrel.rpc.perf.support.Workload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code --jdks}: runs the whole matrix once per JDK, one after the other, each in a runner JVM of
 * that JDK ({@link PerfMain} with the same options, report into {@code <out>/jdk-<version>}), whose
 * server JVMs run on the same JDK (they are started with the runner's {@code java.home}). Then
 * writes one report with the JDKs side by side ({@link JdkComparison}). Every child JVM is bounded
 * in time and killed if it outlives its bound or this JVM.
 */
final class JdkRunner {
    private JdkRunner() {
    }

    static PerfReport run(PerfOptions options, String[] args, PrintStream console) throws IOException,
            InterruptedException {
        Files.createDirectories(options.outputDir());
        List<String> childArgs = childArgs(args);
        Map<Jdks.Jdk, Rounds> results = new LinkedHashMap<>();
        List<RunResult> failures = new ArrayList<>();
        long timeoutSeconds = 3 * estimatedSeconds(options) + 600;
        console.println("Kestrel RPC perf-test on " + options.jdks().size() + " JDKs, one after the other: "
                + options.jdks().stream().map(j -> j.label() + " (" + j.version() + ", " + j.home() + ")").toList());
        try (ClasspathSnapshot classpath = ClasspathSnapshot.ofCurrentJvm()) {
            for (Jdks.Jdk jdk : options.jdks()) {
                Path dir = options.outputDir().resolve("jdk-" + jdk.label());
                console.println();
                console.println("=== JDK " + jdk.label() + " (" + jdk.home() + "): report in " + dir + " ===");
                int exit = runChild(jdk.java(), "jdk " + jdk.label(), classpath, childArgs, dir, timeoutSeconds, console);
                Path csv = dir.resolve("perf-results.csv");
                Path roundsCsv = dir.resolve(ReportWriter.ROUNDS_CSV);
                if (options.rounds() > 1 && Files.isRegularFile(roundsCsv)) {
                    results.put(jdk, Rounds.combine(ResultsCsv.readRounds(roundsCsv)));
                } else if (Files.isRegularFile(csv)) {
                    results.put(jdk, Rounds.combine(List.of(ResultsCsv.read(csv))));
                } else {
                    failures.add(RunResult.notRun("jdk-" + jdk.label(), Workload.values()[0], RunResult.Status.FAILED,
                            "the runner JVM on JDK " + jdk.label() + " ended with code " + exit
                                    + " and wrote no results; see the output above", options.threads()));
                }
            }
        }
        PerfReport report = JdkComparison.write(options, results, failures);
        console.println();
        console.println("JDKs side by side: " + report.markdown() + ", " + report.csv());
        return report;
    }

    /** The options for each child: all given, but --jdks and --out (the child gets its own directory). */
    static List<String> childArgs(String[] args) {
        return PerfArgs.argsWithout(args, Set.of("--jdks", "--out"));
    }

    /**
     * Runs {@link PerfMain} with {@code childArgs} and {@code --out dir} in a runner JVM of {@code java}, its
     * output copied to {@code console} behind {@code [label]}; killed after {@code timeoutSeconds} or with
     * this JVM. Returns its exit code, -1 if it was killed for time.
     */
    static int runChild(Path java, String label, ClasspathSnapshot classpath, List<String> childArgs, Path dir,
            long timeoutSeconds, PrintStream console) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(ServerProcess.SERVER_HEAP);
        command.add("-Djava.awt.headless=true");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.addAll(JvmFlags.all());
        command.add("-cp");
        command.add(classpath.classPath());
        command.add(PerfMain.class.getName());
        command.addAll(childArgs);
        command.add("--out");
        command.add(dir.toString());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread kill = new Thread(p::destroyForcibly, "perf-kill-" + label);
        Runtime.getRuntime().addShutdownHook(kill);
        Thread copier = new Thread(() -> copy(p, "[" + label + "] ", console), "perf-out-" + label);
        copier.setDaemon(true);
        copier.start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                console.println("[" + label + "] still running after " + timeoutSeconds + " s; killed");
                return -1;
            }
            copier.join(5_000);
            return p.exitValue();
        } finally {
            p.destroyForcibly();
            try {
                Runtime.getRuntime().removeShutdownHook(kill);
            } catch (IllegalStateException e) {
                // shutting down; the hook runs anyway
            }
        }
    }

    private static void copy(Process p, String prefix, PrintStream console) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                console.println(prefix + line);
            }
        } catch (IOException e) {
            // the child ended; its exit code tells the rest
        }
    }

    /** The matrix's duration, all rounds, as {@link PerfRunner} estimates it. */
    static long estimatedSeconds(PerfOptions options) {
        long configs = (long) options.systems().size() * options.workloads().size() * (1 + options.inflight().size());
        double perConfig = (options.warmup().toMillis() + options.measure().toMillis()) / 1000.0 + 0.2;
        return (long) (options.rounds() * (configs * perConfig + options.systems().size() * 3) + 60);
    }
}
