package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.JvmFlags;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A peer system that must not share a class path with the framework (stock Apache Dubbo, grpc-java): it runs on the
 * class path of a module of its own ({@code target/classes} and {@code target/classpath.txt}, written by
 * {@code mvn package}), never on perf-test's. Its server runs in a JVM of its own, its client in a class loader whose
 * parent is the platform class loader, so the peer and the framework share no class. The module is found at
 * {@code -D<property>=DIR}, by default its directory under the working directory (run.sh runs from the repository
 * root).
 */
public final class IsolatedModule {
    private final String label;
    private final String property;
    private final String directory;
    private final String serverMain;
    private final String clientClass;
    private volatile URLClassLoader loader;

    /**
     * @param label what the peer is called in messages ("stock Dubbo")
     * @param property the system property that may name the module's directory
     * @param directory the module's directory under the working directory, by default
     * @param serverMain the main class of its server JVM (perf-test's server line protocol)
     * @param clientClass its client class, loaded in the isolated class loader
     */
    public IsolatedModule(String label, String property, String directory, String serverMain, String clientClass) {
        this.label = label;
        this.property = property;
        this.directory = directory;
        this.serverMain = serverMain;
        this.clientClass = clientClass;
    }

    private Path module() {
        return Path.of(System.getProperty(property, directory)).toAbsolutePath();
    }

    /** Why the peer cannot run (its module is not built), or null. */
    public String unavailableReason() {
        Path m = module();
        if (!Files.isRegularFile(m.resolve("target/classpath.txt")) || !Files.isDirectory(m.resolve("target/classes"))) {
            return label + "'s class path is not built at " + m + "/target; run mvn -DskipTests package -pl "
                    + "perf-test," + directory + " -am (perf-test/run.sh does), or set -D" + property;
        }
        return null;
    }

    /** The isolated class path: the module's classes, then its dependencies. */
    List<String> classPath() throws IOException {
        Path m = module();
        List<String> entries = new ArrayList<>();
        entries.add(m.resolve("target/classes").toString());
        for (String e : Files.readString(m.resolve("target/classpath.txt")).trim().split(File.pathSeparator)) {
            if (!e.isBlank()) {
                entries.add(e);
            }
        }
        return entries;
    }

    /** The client's class loader, created once: the isolated class path over the JDK's platform classes. */
    public ClassLoader clientLoader() throws IOException {
        URLClassLoader l = loader;
        if (l == null) {
            synchronized (this) {
                l = loader;
                if (l == null) {
                    List<URL> urls = new ArrayList<>();
                    for (String e : classPath()) {
                        urls.add(Path.of(e).toUri().toURL());
                    }
                    l = new URLClassLoader(directory, urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
                    loader = l;
                }
            }
        }
        return l;
    }

    /** The client class, loaded in {@link #clientLoader()}. */
    public Class<?> clientType() throws IOException, ClassNotFoundException {
        return Class.forName(clientClass, true, clientLoader());
    }

    /** A server JVM of the peer: a {@link BenchServer} that also reads the JVM's CPU time. */
    public interface Server extends BenchServer {
        /** CPU nanoseconds the server JVM has used so far (its CPU command; -1 if it does not answer it). */
        long cpuNanos();
    }

    /**
     * Starts the peer's server JVM (same heap as perf-test's server JVMs) with {@code args} and waits up to 60 s for
     * READY. The returned server forwards ALLOC (and CPU) to it and stops it (STOP, then destroy) on close.
     */
    public Server startServer(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms512m", "-Xmx512m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(JvmFlags.all());
        command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath()), serverMain));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Writer in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
        String line;
        try {
            line = readLine(out, p, 60);
        } catch (IOException | RuntimeException e) {
            p.destroyForcibly();
            throw e;
        }
        if (line == null || !line.startsWith("READY port=")) {
            p.destroyForcibly();
            throw new IOException(label + " server did not start: " + line);
        }
        int port = Integer.parseInt(line.substring("READY port=".length()).trim());
        return new Server() {
            @Override
            public int port() {
                return port;
            }

            @Override
            public long allocatedBytes() {
                return ask("ALLOC", "ALLOC bytes=");
            }

            @Override
            public long cpuNanos() {
                return ask("CPU", "CPU nanos=");
            }

            private synchronized long ask(String command, String answerPrefix) {
                try {
                    in.write(command + "\n");
                    in.flush();
                    String answer = readLine(out, p, 10);
                    return answer != null && answer.startsWith(answerPrefix)
                            ? Long.parseLong(answer.substring(answerPrefix.length()).trim()) : -1;
                } catch (IOException e) {
                    return -1;
                }
            }

            @Override
            public void close() {
                try {
                    in.write("STOP\n");
                    in.flush();
                    if (!p.waitFor(10, TimeUnit.SECONDS)) {
                        p.destroy();
                    }
                } catch (IOException e) {
                    p.destroy();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    p.destroyForcibly();
                } finally {
                    if (p.isAlive()) {
                        p.destroyForcibly();
                    }
                }
            }
        };
    }

    /** One line of the server's stdout within {@code seconds}; the process is expected to stay alive meanwhile. */
    private String readLine(BufferedReader out, Process p, long seconds) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!out.ready()) {
            if (!p.isAlive()) {
                return out.readLine(); // whatever it printed last, or null
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(label + " server JVM did not answer within " + seconds + " s");
            }
            try {
                Thread.sleep(5); // polling the pipe, as ready() cannot block
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for the " + label + " server", e);
            }
        }
        return out.readLine();
    }
}
