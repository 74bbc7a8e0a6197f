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
 * Where stock Apache Dubbo runs for perf-test: on the class path of the module {@code perf-test-dubbo}
 * ({@code target/classes} and {@code target/classpath.txt}, written by {@code mvn package}), never on
 * perf-test's. Its server runs in a JVM of its own, its client in a class loader whose parent is the platform
 * class loader, so Dubbo and the framework share no class. The module is found at
 * {@code -Dkestrel.perf.dubbo.module=DIR}, default {@code perf-test-dubbo} under the working directory
 * (run.sh runs from the repository root).
 */
final class IsolatedDubbo {
    static final String SERVER_MAIN = "io.kestrel.rpc.perf.dubbo.StockDubboServerMain";
    static final String CLIENT_CLASS = "io.kestrel.rpc.perf.dubbo.StockDubboClient";
    private static volatile URLClassLoader loader;

    private IsolatedDubbo() {
    }

    private static Path module() {
        return Path.of(System.getProperty("kestrel.perf.dubbo.module", "perf-test-dubbo")).toAbsolutePath();
    }

    /** Why stock Dubbo cannot run (the module is not built), or null. */
    static String unavailableReason() {
        Path m = module();
        if (!Files.isRegularFile(m.resolve("target/classpath.txt")) || !Files.isDirectory(m.resolve("target/classes"))) {
            return "stock Dubbo's class path is not built at " + m + "/target; run mvn -DskipTests package -pl "
                    + "perf-test,perf-test-dubbo -am (perf-test/run.sh does), or set -Dkestrel.perf.dubbo.module";
        }
        return null;
    }

    /** The isolated class path: the module's classes, then its dependencies. */
    static List<String> classPath() throws IOException {
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
    static ClassLoader clientLoader() throws IOException {
        URLClassLoader l = loader;
        if (l == null) {
            synchronized (IsolatedDubbo.class) {
                l = loader;
                if (l == null) {
                    List<URL> urls = new ArrayList<>();
                    for (String e : classPath()) {
                        urls.add(Path.of(e).toUri().toURL());
                    }
                    l = new URLClassLoader("stock-dubbo", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
                    loader = l;
                }
            }
        }
        return l;
    }

    /**
     * Starts stock Dubbo's server JVM (same heap as perf-test's server JVMs) and waits up to 60 s for READY. The
     * returned server forwards ALLOC to it and stops it (STOP, then destroy) on close.
     */
    static BenchServer startServer(String serialization, int threads) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms512m", "-Xmx512m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"));
        command.addAll(JvmFlags.all());
        command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath()), SERVER_MAIN, serialization,
                Integer.toString(threads)));
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
            throw new IOException("stock Dubbo server did not start: " + line);
        }
        int port = Integer.parseInt(line.substring("READY port=".length()).trim());
        return new BenchServer() {
            @Override
            public int port() {
                return port;
            }

            @Override
            public synchronized long allocatedBytes() {
                try {
                    in.write("ALLOC\n");
                    in.flush();
                    String answer = readLine(out, p, 10);
                    return answer != null && answer.startsWith("ALLOC bytes=")
                            ? Long.parseLong(answer.substring("ALLOC bytes=".length()).trim()) : -1;
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
    private static String readLine(BufferedReader out, Process p, long seconds) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!out.ready()) {
            if (!p.isAlive()) {
                return out.readLine(); // whatever it printed last, or null
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("stock Dubbo server JVM did not answer within " + seconds + " s");
            }
            try {
                Thread.sleep(5); // polling the pipe, as ready() cannot block
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for the stock Dubbo server", e);
            }
        }
        return out.readLine();
    }
}
