package io.kestrel.rpc.testbed;

import io.kestrel.rpc.testing.OutputLines;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/**
 * A JVM running on one host of the bed ({@code ip netns exec <host> java ...}, which execs, so the process
 * is the JVM itself and signals reach it), with the test JVM's class path. It runs {@link Watchdog}, so it
 * exits when its stdin closes and cannot outlive the test for long. Its output goes to
 * {@code target/testbed/logs/<name>.log} and is kept as lines for {@link #awaitLine}.
 */
final class HostJvm implements AutoCloseable {
    private final String name;
    private final Process process;
    private final PrintWriter stdin;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path log;

    private HostJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.stdin = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(this::drain, "testbed-output-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} on {@code host}; {@code jvmArgs} come before the class path. */
    static HostJvm start(Hosts hosts, String host, String name, Path logDir, List<String> jvmArgs,
            Class<?> mainClass, String... args) throws IOException {
        List<String> java = new ArrayList<>();
        java.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("--enable-native-access")) {
                java.add(a);
            }
        }
        // small and quick to start: 2 cores run seven of these
        java.addAll(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.showDateTime=true"));
        java.addAll(jvmArgs);
        java.addAll(List.of("-cp", System.getProperty("java.class.path"), Watchdog.class.getName(),
                mainClass.getName()));
        java.addAll(List.of(args));
        Files.createDirectories(logDir);
        Path log = logDir.resolve(name + ".log");
        Process p = new ProcessBuilder(hosts.on(host, java)).redirectErrorStream(true).start();
        return new HostJvm(name, p, log);
    }

    private void drain() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                OutputStream out = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            String line;
            while ((line = r.readLine()) != null) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                lines.add(line);
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    String name() {
        return name;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Sends one line to the process's stdin. */
    void send(String line) {
        stdin.println(line);
    }

    /** Waits for a line matching {@code regex} (skipping others) and returns its match. */
    Matcher awaitLine(String regex, long timeoutMs) throws InterruptedException {
        return OutputLines.await(lines, regex, timeoutMs, name,
                () -> "(alive: " + process.isAlive() + "); see " + log);
    }

    /** Sends {@code signal} ("KILL", "TERM") to the JVM. */
    void signal(String signal) throws IOException {
        Hosts.Result r = Hosts.exec(List.of("kill", "-" + signal, Long.toString(process.pid())));
        if (r.code() != 0) {
            throw new IOException("kill -" + signal + " " + name + " failed: " + r.output());
        }
    }

    /** Waits up to {@code timeoutMs} for the JVM to end; its exit code, or -1 if it still runs. */
    int awaitExit(long timeoutMs) throws InterruptedException {
        return process.waitFor(timeoutMs, TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** Ends the JVM: stdin closed (it exits by itself), then SIGKILL after 5 s. */
    @Override
    public void close() {
        stdin.close();
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
