package io.kestrel.rpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.boot.fixture.Greeter;
import io.kestrel.rpc.spring.boot.fixture.NonWebProviderMain;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A provider-only, non-web Boot application in a child JVM: it stays up after {@code main} returns while it
 * exports, serves calls, and on SIGTERM ({@link Process#destroy()} on Linux) shuts down in order (readiness
 * refusing, unregister, drain, server closed, runtime closed) and exits with the JVM's SIGTERM status 143.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NonWebLifecycleTest {
    private static final Pattern PORT = Pattern.compile("Exporting 1 service\\(s\\) on port (\\d+)");

    @Test
    void staysUpWhileExportingAndShutsDownInOrderOnSigterm() throws Exception {
        try (TestingServer zookeeper = new TestingServer(true)) {
            String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
            ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", NonWebProviderMain.class.getName(),
                    "--spring.application.name=sigterm-provider", "--rpc.protocol.port=0",
                    "--rpc.registry.address=zookeeper://" + zookeeper.getConnectString(), "--greeter.tag=child");
            pb.redirectErrorStream(true);
            Path log = Files.createTempFile("kestrel-sigterm", ".log");
            pb.redirectOutput(log.toFile());
            Process child = pb.start();
            Supplier<List<String>> lines = () -> {
                try {
                    return Files.readAllLines(log, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            try {
                Http.await("the child's main to return", Duration.ofSeconds(60),
                        () -> lines.get().contains(NonWebProviderMain.MAIN_RETURNED) || !child.isAlive());
                assertTrue(child.isAlive(), "exited after main returned:\n" + String.join("\n", lines.get()));
                int port = port(lines.get());

                // nothing but the keep-alive thread holds the JVM now; it must still be there, and serve
                assertFalse(child.waitFor(2, TimeUnit.SECONDS), "exited:\n" + String.join("\n", lines.get()));
                try (RpcRuntime consumer = RpcRuntime.builder().build()) {
                    Greeter greeter = consumer.refer(ReferenceConfig.builder(Greeter.class).version("1.0")
                            .url("127.0.0.1:" + port).timeout(Duration.ofSeconds(30)).build()); // a cold child JVM
                    assertEquals("hello ann from child", greeter.greet("ann"));
                }

                child.destroy(); // SIGTERM
                System.err.println("SIGTERM sent at line " + lines.get().size());
                assertTrue(child.waitFor(60, TimeUnit.SECONDS), "did not exit on SIGTERM");
                List<String> output = lines.get();
                String out = String.join("\n", output);
                assertEquals(143, child.exitValue(), "exit status after SIGTERM:\n" + out);
                int readiness = indexOf(output, "Kestrel RPC shutting down: readiness is REFUSING_TRAFFIC");
                int unregistered = indexOf(output, "Unregistered 1 service(s) from the registry");
                int draining = indexOf(output, "Draining: refusing new calls");
                int serverClosed = indexOf(output, "Kestrel RPC server on port " + port + " closed");
                int runtimeClosed = indexOf(output, "RpcRuntime of sigterm-provider closed");
                assertTrue(readiness < unregistered && unregistered < draining && draining < serverClosed
                        && serverClosed < runtimeClosed, "shutdown order:\n" + out);
                assertFalse(out.contains("Exception") || out.contains(" ERROR "), "a clean shutdown:\n" + out);
            } finally {
                child.destroyForcibly();
                child.waitFor(30, TimeUnit.SECONDS);
                Files.deleteIfExists(log);
            }
        }
    }

    private static int port(List<String> lines) {
        for (String line : lines) {
            Matcher m = PORT.matcher(line);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        throw new AssertionError("no port line in:\n" + String.join("\n", lines));
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no line with '" + text + "' in:\n" + String.join("\n", lines));
    }
}
