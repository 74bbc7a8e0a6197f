package io.kestrel.rpc.perf.server;

import io.kestrel.rpc.perf.support.JvmFlags;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A server JVM running {@link PerfServerMain}, started with (a snapshot of) this JVM's class path. Its stdout is the
 * control channel (see {@link PerfServerMain}); its stderr goes to a log file. {@link #close()}
 * always ends the process: politely with STOP, then {@code destroy}, then {@code destroyForcibly}; a
 * shutdown hook does the same if the runner exits first.
 *
 * <p>Not thread-safe: one runner thread talks to it.
 */
public final class ServerProcess implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

    private final String system;
    private final Process process;
    private final Writer stdin;
    private final CompletableFuture<Integer> ready = new CompletableFuture<>();
    private final BlockingQueue<Long> allocAnswers = new LinkedBlockingQueue<>();
    private final BlockingQueue<Long> cpuAnswers = new LinkedBlockingQueue<>();
    private final BlockingQueue<long[]> heapAnswers = new LinkedBlockingQueue<>();
    private final BlockingQueue<Integer> inFlightAnswers = new LinkedBlockingQueue<>();
    private final BlockingQueue<Limits> limitsAnswers = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> otherAnswers = new LinkedBlockingQueue<>();
    private final Thread shutdownHook;
    private final Path log;
    private volatile String lastLine = "";

    private ServerProcess(String system, Process process, Path log) {
        this.system = system;
        this.process = process;
        this.log = log;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.shutdownHook = new Thread(this::kill, "perf-kill-" + system);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        Thread reader = new Thread(this::readStdout, "perf-server-out-" + system);
        reader.setDaemon(true);
        reader.start();
    }

    /** The running JDK's {@code java} launcher, which server JVMs (and fresh-client runners) are started with. */
    public static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    /** Heap of the server JVMs; fixed so that GC behaviour does not depend on the machine's RAM. */
    public static final List<String> SERVER_HEAP = List.of("-Xms512m", "-Xmx512m");

    /**
     * Starts a server JVM and waits until it prints READY. Its flags are {@link #SERVER_HEAP}, Netty's and
     * fst's ({@link JvmFlags#all()}) and {@code extraJvmFlags}.
     *
     * @param launch what the server JVM runs
     * @param classpath the class path it runs from
     * @param extraJvmFlags further flags for the server JVM
     * @param log file that receives the server's stderr
     * @throws IOException if it cannot start, fails, or is not ready within 60 s; the process is
     *     killed in every such case
     */
    public static ServerProcess start(ServerLaunch launch, ClasspathSnapshot classpath, List<String> extraJvmFlags,
            Path log) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(JAVA.toString());
        command.addAll(SERVER_HEAP);
        command.addAll(JvmFlags.all());
        command.addAll(extraJvmFlags);
        command.add("-cp");
        command.add(classpath.classPath());
        command.add(PerfServerMain.class.getName());
        command.addAll(launch.toArgs());
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        ServerProcess server = new ServerProcess(launch.system(), p, log);
        try {
            server.awaitReady();
            return server;
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private void awaitReady() throws IOException, InterruptedException {
        try {
            ready.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException(system + " server JVM not ready within " + READY_TIMEOUT.toSeconds() + " s; see " + log);
        } catch (ExecutionException e) {
            throw new IOException(system + " server JVM failed to start: " + e.getCause().getMessage() + "; see " + log);
        }
    }

    /** The port the server listens on. */
    public int port() {
        return ready.join();
    }

    /**
     * Bytes allocated so far by the server JVM's live threads (ALLOC command).
     *
     * @throws IOException if the server does not answer within 10 s
     */
    public long allocatedBytes() throws IOException, InterruptedException {
        return ask("ALLOC", allocAnswers);
    }

    /**
     * CPU nanoseconds the server JVM's process has used so far (CPU command); -1 if it does not know.
     *
     * @throws IOException if the server does not answer within 10 s
     */
    public long cpuNanos() throws IOException, InterruptedException {
        return ask("CPU", cpuAnswers);
    }

    /** The server JVM's process id (for {@link io.kestrel.rpc.perf.support.ThreadSwitches}). */
    public long pid() {
        return process.pid();
    }

    /** The server JVM's used heap after {@code System.gc()} and its in-flight calls (-1: not known). */
    public record Heap(long usedBytes, int inFlight) {
    }

    /**
     * Runs the server's garbage collector and reads its used heap and in-flight count (HEAP command).
     *
     * @throws IOException if the server does not answer within 10 s
     */
    public Heap heap() throws IOException, InterruptedException {
        long[] answer = ask("HEAP", heapAnswers);
        return new Heap(answer[0], (int) answer[1]);
    }

    /**
     * The server's in-flight calls, without a GC (INFLIGHT command); -1 if the server does not know.
     *
     * @throws IOException if the server does not answer within 10 s
     */
    public int inFlight() throws IOException, InterruptedException {
        return ask("INFLIGHT", inFlightAnswers);
    }

    /**
     * The soak provider's limit figures (LIMITS command; -1 where the server does not know them).
     *
     * @param memoryInUse bytes held against the memory budget now
     * @param maxMemoryInUse the most held, sampled every millisecond since the previous LIMITS
     * @param refusedConnections connections refused at the connection limits so far
     * @param connections consumer connections open
     * @param budget the memory budget
     */
    public record Limits(long memoryInUse, long maxMemoryInUse, long refusedConnections, int connections,
            long budget) {
    }

    /**
     * Reads the provider's limit figures (LIMITS command); resets the provider's sampled maximum.
     *
     * @throws IOException if the server does not answer within 10 s
     */
    public Limits limits() throws IOException, InterruptedException {
        return ask("LIMITS", limitsAnswers);
    }

    /**
     * Sends a command whose answer line is not one of the above (e.g. PORTS, MEMORY of the per-port soak
     * provider) and returns that line, without {@code answerPrefix}.
     *
     * @throws IOException if the server does not answer within 10 s
     */
    public String ask(String command, String answerPrefix) throws IOException, InterruptedException {
        String line = ask(command, otherAnswers);
        if (!line.startsWith(answerPrefix)) {
            throw new IOException(system + " server answered " + command + " with '" + line + "'");
        }
        return line.substring(answerPrefix.length()).trim();
    }

    private <T> T ask(String command, BlockingQueue<T> answers) throws IOException, InterruptedException {
        answers.clear();
        stdin.write(command + "\n");
        stdin.flush();
        T answer = answers.poll(ANSWER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (answer == null) {
            throw new IOException(system + " server did not answer " + command + " within "
                    + ANSWER_TIMEOUT.toSeconds() + " s (alive=" + process.isAlive() + ", last line '" + lastLine + "')");
        }
        return answer;
    }

    private void readStdout() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lastLine = line;
                if (line.startsWith("READY port=")) {
                    ready.complete(Integer.parseInt(line.substring("READY port=".length()).trim()));
                } else if (line.startsWith("FAILED")) {
                    ready.completeExceptionally(new IOException(line.substring("FAILED".length()).trim()));
                } else if (line.startsWith("ALLOC bytes=")) {
                    allocAnswers.offer(Long.parseLong(line.substring("ALLOC bytes=".length()).trim()));
                } else if (line.startsWith("CPU nanos=")) {
                    cpuAnswers.offer(Long.parseLong(line.substring("CPU nanos=".length()).trim()));
                } else if (line.startsWith("HEAP used=")) {
                    String[] parts = line.substring("HEAP used=".length()).trim().split(" inflight=");
                    heapAnswers.offer(new long[] {Long.parseLong(parts[0].trim()), Long.parseLong(parts[1].trim())});
                } else if (line.startsWith("LIMITS ")) {
                    limitsAnswers.offer(parseLimits(line));
                } else if (line.startsWith("INFLIGHT n=")) {
                    inFlightAnswers.offer(Integer.parseInt(line.substring("INFLIGHT n=".length()).trim()));
                } else if (line.startsWith("PORTS ") || line.startsWith("MEMORY ")) {
                    otherAnswers.offer(line);
                }
            }
        } catch (IOException | NumberFormatException e) {
            ready.completeExceptionally(e);
        } finally {
            ready.completeExceptionally(new IOException("server JVM exited (code "
                    + (process.isAlive() ? "?" : process.exitValue()) + ")"));
        }
    }

    private static Limits parseLimits(String line) {
        java.util.Map<String, Long> v = new java.util.HashMap<>();
        for (String pair : line.substring("LIMITS ".length()).trim().split(" ")) {
            int eq = pair.indexOf('=');
            v.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
        }
        return new Limits(v.get("memory"), v.get("max"), v.get("refused"), Math.toIntExact(v.get("connections")),
                v.get("budget"));
    }

    /** Stops the server JVM; always ends the process, waiting at most about 10 s. */
    @Override
    public void close() {
        try {
            stdin.write("STOP\n");
            stdin.flush();
            stdin.close();
        } catch (IOException e) {
            // already gone; kill() below makes sure
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down; the hook runs anyway
        }
    }

    private void kill() {
        process.destroy();
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
