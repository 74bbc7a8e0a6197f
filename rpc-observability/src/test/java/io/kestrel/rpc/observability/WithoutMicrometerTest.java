package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Micrometer and OpenTelemetry are optional: the framework (with this module's classes on the class
 * path) serves and makes calls in a JVM that has neither, and traces them with
 * {@code KestrelOpenTelemetry} in one that has the OpenTelemetry jars but no Micrometer.
 */
class WithoutMicrometerTest {
    private static final List<String> OPTIONAL = List.of("micrometer", "opentelemetry", "HdrHistogram", "LatencyUtils",
            "prometheus", "context-propagation");

    @Test
    void theFrameworkRunsWithoutMicrometerOrOpenTelemetryOnTheClassPath() throws Exception {
        assertEquals(List.of("OK hello ada from plain"), runWithout(OPTIONAL, PlainCallMain.class));
    }

    @Test
    void directOpenTelemetryTracingNeedsNoMicrometer() throws Exception {
        List<String> micrometer = OPTIONAL.stream().filter(o -> !o.equals("opentelemetry")).toList();
        assertEquals(List.of("OK hello ada from otel, spans [CLIENT, SERVER] in one trace"),
                runWithout(micrometer, OtelWithoutMicrometerMain.class));
    }

    /** Runs {@code main} in a JVM whose class path lacks the jars named by {@code dropped}; its "OK " lines. */
    private static List<String> runWithout(List<String> dropped, Class<?> main) throws Exception {
        List<String> all = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> kept = all.stream().filter(e -> dropped.stream().noneMatch(e::contains)).toList();
        assertTrue(all.size() - kept.size() >= 3, "the test class path had jars to drop (" + dropped + "): " + all);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", String.join(File.pathSeparator, kept), main.getName())
                .redirectErrorStream(true).start();
        try {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM finished within 60 s");
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), output);
            return output.lines().filter(l -> l.startsWith("OK ")).collect(Collectors.toList());
        } finally {
            child.destroyForcibly();
        }
    }
}
