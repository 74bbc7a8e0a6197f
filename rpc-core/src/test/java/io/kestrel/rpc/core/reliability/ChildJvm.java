package io.kestrel.rpc.core.reliability;

import io.kestrel.rpc.testing.OutputLines;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/**
 * A main class of the test sources started in a separate JVM, with this JVM's class path and the
 * surefire flags that matter (--add-opens, Netty settings). Its output is drained on a daemon
 * thread and kept as lines; {@link #close} always ends it (forcibly as a last resort). The child
 * exits by itself when its stdin closes, so it cannot outlive a crashed test JVM for long.
 */
final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final String name;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = java.util.Collections.synchronizedList(new ArrayList<>());

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        Thread reader = new Thread(this::drain, "child-output-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    static ChildJvm start(String name, Class<?> mainClass, String... args) throws IOException {
        return start(name, List.of(), mainClass, args);
    }

    /** @param jvmArgs extra JVM flags, after (so overriding) the default log level "warn" */
    static ChildJvm start(String name, List<String> jvmArgs, Class<?> mainClass, String... args) throws IOException {
        return startWithClassPath(name, System.getProperty("java.class.path"), jvmArgs, mainClass, args);
    }

    /** As {@link #start(String, List, Class, String...)} with another class path (e.g. without an optional jar). */
    static ChildJvm startWithClassPath(String name, String classPath, List<String> jvmArgs, Class<?> mainClass,
            String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("--add-exports") || a.startsWith("-Dio.netty.")) {
                command.add(a);
            }
        }
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        String embeddedDir = System.getProperty("kestrel.rpc.registry.embedded.dir");
        if (embeddedDir != null) { // the embedded registry's secret: children join the parent's registry
            command.add("-Dkestrel.rpc.registry.embedded.dir=" + embeddedDir);
        }
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new ChildJvm(name, p);
    }

    private void drain() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                all.add(line);
                lines.add(line);
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Waits for a line matching {@code regex} and returns its match; fails with the output so far. */
    Matcher awaitLine(String regex, long timeoutMs) throws InterruptedException {
        return OutputLines.await(lines, regex, timeoutMs, name,
                () -> "(alive: " + process.isAlive() + "); output: " + output());
    }

    String output() {
        synchronized (all) {
            return String.join("\n", all);
        }
    }

    long pid() {
        return process.pid();
    }

    /** Sends a signal with the kill command ("STOP", "CONT"). */
    void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .redirectErrorStream(true).start();
        if (!kill.waitFor(5, TimeUnit.SECONDS)) {
            kill.destroyForcibly();
            throw new AssertionError("kill -" + signal + " did not finish");
        }
        if (kill.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed with " + kill.exitValue());
        }
    }

    /** Ends the process at once (SIGKILL): no shutdown hook runs, the kernel resets its sockets. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " still alive 10 s after SIGKILL");
        }
    }

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        try {
            signal("CONT"); // a stopped process would not act on SIGTERM
        } catch (Exception | AssertionError ignored) {
            // it is ended below either way
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
