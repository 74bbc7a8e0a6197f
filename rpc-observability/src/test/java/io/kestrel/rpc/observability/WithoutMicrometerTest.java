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
 * path) serves and makes calls in a JVM that has neither.
 */
class WithoutMicrometerTest {
    private static final List<String> OPTIONAL = List.of("micrometer", "opentelemetry", "HdrHistogram", "LatencyUtils",
            "prometheus", "context-propagation");

    @Test
    void theFrameworkRunsWithoutMicrometerOrOpenTelemetryOnTheClassPath() throws Exception {
        List<String> all = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> kept = all.stream().filter(e -> OPTIONAL.stream().noneMatch(e::contains)).toList();
        assertTrue(all.size() - kept.size() >= 3, "the test class path had Micrometer and OpenTelemetry jars to drop: " + all);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", String.join(File.pathSeparator, kept),
                PlainCallMain.class.getName()).redirectErrorStream(true).start();
        try {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM finished within 60 s");
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), output);
            List<String> ok = output.lines().filter(l -> l.startsWith("OK ")).collect(Collectors.toList());
            assertEquals(List.of("OK hello ada from plain"), ok, output);
        } finally {
            child.destroyForcibly();
        }
    }
}
