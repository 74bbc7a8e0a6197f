package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.perf.support.CommandLine;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code perf-test/run.sh streams}: server streaming of small messages, bidirectional ping-pong, wire bytes per
 * message and unary p99 beside a stream, for the framework's streams against a minimal raw-Netty streaming loop with
 * the same serializer and against grpc-java; writes {@code streams-report.md} and {@code streams-rounds.csv}. Options:
 * {@link StreamOptions#USAGE}.
 */
public final class StreamPerfMain {
    private StreamPerfMain() {
    }

    public static void main(String[] args) throws Exception {
        StreamOptions options = CommandLine.parseOrExit(args, StreamOptions::parse, StreamOptions.USAGE);
        Path report = run(options);
        System.out.println("Report: " + report.toAbsolutePath());
        System.exit(0); // client libraries' non-daemon threads (grpc's) must not keep the runner alive
    }

    /** Measures and writes the report; returns its path. */
    static Path run(StreamOptions options) throws Exception {
        List<StreamRound> rows = new StreamRunner(options, System.out::println).run();
        return new StreamReport(options, rows).write();
    }
}
