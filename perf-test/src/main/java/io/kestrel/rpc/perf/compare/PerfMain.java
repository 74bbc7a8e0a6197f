package io.kestrel.rpc.perf.compare;

import io.kestrel.rpc.perf.report.PerfReport;
import io.kestrel.rpc.perf.report.RunResult;
import io.kestrel.rpc.perf.support.CommandLine;

/**
 * Command-line entry of the benchmark (the client JVM). {@code perf-test/run.sh} starts it with the
 * right JVM flags; see {@link PerfOptions} for the options. Exits 0 if every configuration that ran
 * completed without errors, 1 otherwise, 2 on bad options.
 */
public final class PerfMain {
    private PerfMain() {
    }

    public static void main(String[] args) throws Exception {
        PerfOptions options = CommandLine.parseOrExit(args, PerfOptions::parse, PerfArgs.USAGE);
        options.applyTraceSampling();
        PerfReport report = options.jdks().isEmpty() ? PerfRunner.run(options, System.out)
                : JdkRunner.run(options, args, System.out);
        boolean failed = report.results().stream().anyMatch(r -> r.status() == RunResult.Status.FAILED);
        System.exit(failed ? 1 : 0);
    }
}
