package io.kestrel.rpc.perf.jmh;

import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.perf.support.CommandLine;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.JvmFlags;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link SerializerBenchmark} in one forked JVM (with the fst {@code --add-opens} flags) and
 * writes {@code jmh-sizes.csv} (encoded bytes per codec and shape) and {@code jmh-results.csv} into
 * the output directory.
 *
 * <p>Options ({@link #USAGE}): {@code --out DIR} (default perf-results), {@code --codecs kryo,fst,...},
 * {@code --shapes bidRequest,order100,...}, {@code --quick} (1 x 0.5 s warm-up, 2 x 0.5 s
 * measurement instead of 2 x 1 s and 3 x 1 s).
 */
public final class JmhMain {
    static final String USAGE = """
            Usage: run.sh jmh [options]
              --out DIR        output directory (default perf-results)
              --codecs LIST    comma-separated, from %s (default all)
              --shapes LIST    comma-separated, from %s (default all)
              --quick          1 x 0.5 s warm-up and 2 x 0.5 s measurement per benchmark
              --help
            """.formatted(Codecs.NAMES, Shapes.NAMES);

    /** Options of a JMH run. */
    record Options(Path out, List<String> codecs, List<String> shapes, boolean quick) {
        static Options parse(String... args) {
            Path out = Path.of("perf-results");
            List<String> codecs = Codecs.NAMES;
            List<String> shapes = Shapes.NAMES;
            boolean quick = false;
            for (CommandLine.Option o : CommandLine.parse(args, Set.of("--quick"))) {
                switch (o.name()) {
                    case "--out" -> out = o.path();
                    case "--codecs" -> codecs = List.of(o.value().split(","));
                    case "--shapes" -> shapes = List.of(o.value().split(","));
                    case "--quick" -> quick = true;
                    default -> throw o.unknown();
                }
            }
            return new Options(out, codecs, shapes, quick);
        }
    }

    private JmhMain() {
    }

    public static void main(String[] args) throws RunnerException, IOException {
        Options o = CommandLine.parseOrExit(args, Options::parse, USAGE);
        Path out = o.out();
        boolean quick = o.quick();
        Files.createDirectories(out);
        writeSizes(o.codecs(), o.shapes(), out.resolve("jmh-sizes.csv"));

        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(SerializerBenchmark.class.getName() + "\\.")
                .forks(1)
                .jvmArgsAppend(missingFlags())
                .warmupIterations(quick ? 1 : 2)
                .warmupTime(TimeValue.milliseconds(quick ? 500 : 1000))
                .measurementIterations(quick ? 2 : 3)
                .measurementTime(TimeValue.milliseconds(quick ? 500 : 1000))
                .param("codec", o.codecs().toArray(String[]::new))
                .param("shape", o.shapes().toArray(String[]::new))
                .resultFormat(ResultFormatType.CSV)
                .result(out.resolve("jmh-results.csv").toString());
        new Runner(options.build()).run();
        System.out.println("Wrote " + out.resolve("jmh-sizes.csv") + " and " + out.resolve("jmh-results.csv"));
    }

    /** The flags of {@link JvmFlags#all()} this JVM was not started with (the fork inherits this JVM's flags). */
    private static String[] missingFlags() {
        List<String> present = ManagementFactory.getRuntimeMXBean().getInputArguments();
        return JvmFlags.all().stream().filter(f -> !present.contains(f)).toArray(String[]::new);
    }

    /** Encoded bytes per codec and shape, printed and written as CSV. */
    private static void writeSizes(List<String> codecs, List<String> shapes, Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("shape," + String.join(",", codecs));
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%-12s", "bytes"));
        codecs.forEach(c -> table.append(String.format(Locale.ROOT, "  %10s", c)));
        table.append('\n');
        for (String shape : shapes) {
            StringBuilder csv = new StringBuilder(shape);
            table.append(String.format(Locale.ROOT, "%-12s", shape));
            for (String codec : codecs) {
                String size;
                try {
                    Serializer s = Codecs.create(codec);
                    size = Integer.toString(Encodings.toBytes(s, Shapes.create(shape)).length);
                } catch (RuntimeException | LinkageError e) {
                    size = "error";
                }
                csv.append(',').append(size);
                table.append(String.format(Locale.ROOT, "  %" + Math.max(10, codec.length()) + "s", size));
            }
            lines.add(csv.toString());
            table.append('\n');
        }
        System.out.println(table);
        Files.write(file, lines, StandardCharsets.UTF_8);
    }
}
