package io.kestrel.rpc.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.RuntimeAddOn;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericXmlApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The console is an optional add-on: rpc-spring runs in a JVM without io.kestrel:rpc-console (a context builds its
 * runtime with no add-on, {@code <rpc:console enabled="false">} included), and asking for the console there, by
 * {@code rpc.console.enabled=true}, says what is missing.
 */
class ConsoleAbsentTest {

    @Test
    void aRuntimeWithoutTheConsoleArtifactRunsAndAnEnabledConsoleNamesTheArtifact() throws Exception {
        List<String> all = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> kept = all.stream().filter(e -> !e.contains("rpc-console")).toList();
        assertEquals(all.size() - 1, kept.size(), "the test class path had rpc-console to drop: " + all);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", String.join(File.pathSeparator, kept), Main.class.getName())
                .redirectErrorStream(true).start();
        try {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM finished within 60 s");
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), output);
            List<String> lines = output.lines().filter(l -> l.startsWith("OK ")).toList();
            assertEquals(2, lines.size(), output);
            assertEquals("OK plain: no add-on", lines.get(0));
            assertTrue(lines.get(1).contains("io.kestrel:rpc-console is not on the class path"), lines.get(1));
            assertTrue(lines.get(1).contains("rpc.console.enabled"), lines.get(1));
        } finally {
            child.destroyForcibly();
        }
    }

    /** Runs in the JVM without rpc-console; prints one "OK " line per case. */
    public static final class Main {
        public static void main(String[] args) {
            try (GenericXmlApplicationContext ctx = context(Map.of())) {
                RpcRuntime runtime = ctx.getBean(RpcRuntime.class);
                System.out.println("OK plain: " + (runtime.addOn(RuntimeAddOn.class).isEmpty() ? "no add-on" : "add-on"));
            }
            try (GenericXmlApplicationContext ctx = context(Map.of("rpc.console.enabled", "true"))) {
                ctx.getBean(RpcRuntime.class);
                System.out.println("FAIL: a runtime was built with rpc.console.enabled=true and no console");
            } catch (RuntimeException e) {
                StringBuilder messages = new StringBuilder();
                for (Throwable t = e; t != null; t = t.getCause()) {
                    messages.append(t.getMessage()).append(' ');
                }
                System.out.println("OK refused: " + messages.toString().replace('\n', ' '));
            }
        }

        private static GenericXmlApplicationContext context(Map<String, Object> properties) {
            GenericXmlApplicationContext ctx = new GenericXmlApplicationContext();
            ctx.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", properties));
            ctx.load("classpath:io/kestrel/rpc/spring/console-absent.xml");
            ctx.refresh();
            return ctx;
        }
    }
}
