package io.kestrel.rpc.perf.startup;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code perf-test/run.sh startup [--runs N] [--serialization fory] [--target-ms 2000]}: starts a provider
 * JVM (direct mode, loopback), then a consumer JVM that makes one call, N times, and prints each JVM's time
 * from its own start (the runtime MXBean's start time) to ready / to the first call's return, with the
 * median. Exits 1 if a run fails or a median exceeds the target (the target: 2 s on 2 cores).
 * The same class is the child JVMs' main ({@code provider} / {@code consumer host:port} as first argument).
 */
public final class StartupMain {
    private StartupMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("provider")) {
            provider(args.length > 1 ? args[1] : "fory");
            return;
        }
        if (args.length > 0 && args[0].equals("consumer")) {
            System.exit(consumer(args[1], args.length > 2 ? args[2] : "fory"));
        }
        int runs = 5;
        String serialization = "fory";
        long targetMs = 2000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--serialization" -> serialization = args[++i];
                case "--target-ms" -> targetMs = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; use --runs N, --serialization NAME, --target-ms MS");
            }
        }
        List<Long> providerMs = new ArrayList<>();
        List<Long> consumerMs = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            Process provider = child("provider", serialization);
            try (BufferedReader out = reader(provider)) {
                Matcher ready = await(out, "READY port=(\\d+) startupMs=(\\d+)");
                Process consumer = child("consumer", "127.0.0.1:" + ready.group(1), serialization);
                try (BufferedReader cout = reader(consumer)) {
                    Matcher first = await(cout, "FIRST_CALL ms=(\\d+)");
                    providerMs.add(Long.parseLong(ready.group(2)));
                    consumerMs.add(Long.parseLong(first.group(1)));
                    System.out.printf("run %d: provider ready %s ms after its JVM start, consumer's first call returned"
                            + " %s ms after its JVM start%n", run, ready.group(2), first.group(1));
                } finally {
                    consumer.destroy();
                }
            } finally {
                provider.getOutputStream().close(); // the provider exits when its stdin closes
                provider.destroy();
            }
        }
        long p = median(providerMs);
        long c = median(consumerMs);
        System.out.printf("startup (%s, %d runs): provider ready median %d ms, consumer first call median %d ms"
                + " (target %d ms)%n", serialization, runs, p, c, targetMs);
        System.exit(p <= targetMs && c <= targetMs ? 0 : 1);
    }

    private static void provider(String serialization) throws IOException {
        RpcRuntime runtime = RpcRuntime.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0)
                .serialization(serialization).shutdownTimeout(Duration.ofSeconds(1)).build()).build();
        runtime.export(ServiceConfig.builder(BenchmarkService.class, new BenchmarkServiceImpl()).build());
        long startupMs = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        System.out.println("READY port=" + runtime.boundPort() + " startupMs=" + startupMs);
        System.out.flush();
        while (System.in.read() >= 0) {
            // runs until the parent closes our stdin
        }
        runtime.close();
        System.exit(0);
    }

    private static int consumer(String address, String serialization) {
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        try (RpcRuntime runtime = RpcRuntime.builder().build()) {
            BenchmarkService service = runtime.refer(ReferenceConfig.builder(BenchmarkService.class).url(address)
                    .serialization(serialization).timeout(Duration.ofSeconds(10)).build());
            String answer = service.echo("first");
            long firstCallMs = System.currentTimeMillis() - jvmStart;
            if (!"first".equals(answer)) {
                System.out.println("WRONG answer " + answer);
                return 2;
            }
            System.out.println("FIRST_CALL ms=" + firstCallMs);
            return 0;
        } catch (RuntimeException e) {
            System.out.println("FAILED " + e);
            return 1;
        } finally {
            System.out.flush();
        }
    }

    private static Process child(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens")) {
                command.add(a);
            }
        }
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(StartupMain.class.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static BufferedReader reader(Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Reads lines until one matches; fails on end of output (the child died) with what it printed. */
    private static Matcher await(BufferedReader out, String regex) throws IOException {
        Pattern pattern = Pattern.compile(regex);
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m;
            }
            seen.append(line).append('\n');
        }
        throw new IllegalStateException("child ended without printing '" + regex + "'; output:\n" + seen);
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
