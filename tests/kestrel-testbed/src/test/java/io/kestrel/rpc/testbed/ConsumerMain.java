package io.kestrel.rpc.testbed;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.RpcRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The consumer host of the bed. Args: ZooKeeper connect string, session timeout ms, output folder. Refers to
 * {@link CountingService} (failover, {@value #RETRIES} retries, {@value #TIMEOUT_MS} ms timeout, round robin,
 * not idempotent) and obeys commands on stdin:
 * <ul>
 * <li>{@code run NAME SECONDS RATE}: calls at RATE calls/s for SECONDS (at most), each call with the unique id
 * {@code NAME-<n>}; prints {@code STARTED NAME t0=<epoch ms>}, then writes {@code NAME.calls} (a line per
 * call: id, start ms, end ms, OK and the provider or FAIL and the error) and prints {@code DONE NAME ...}.
 * <li>{@code stop}: the run in progress starts no more calls (and ends as above).
 * <li>{@code view}: prints {@code VIEW} and the provider addresses the registry shows, sorted.
 * </ul>
 */
public final class ConsumerMain {
    static final int TIMEOUT_MS = 2000;
    static final int RETRIES = 2;
    /** At most this many calls in flight; a call that finds none free is recorded as failed. */
    private static final int MAX_IN_FLIGHT = 400;

    private ConsumerMain() {
    }

    public static void main(String[] args) throws Exception {
        RpcRuntime runtime = RpcRuntime.builder()
                .registry(RegistryConfig.builder().address("zookeeper://" + args[0])
                        .sessionTimeout(Duration.ofMillis(Long.parseLong(args[1])))
                        .connectionTimeout(Duration.ofSeconds(15)).build())
                .build();
        ReferenceConfig<CountingService> config = ReferenceConfig.builder(CountingService.class)
                .cluster(ClusterMode.FAILOVER).retries(RETRIES).timeout(Duration.ofMillis(TIMEOUT_MS))
                .loadBalance("roundrobin").check(false).build();
        CountingService service = runtime.refer(config);
        Path out = Path.of(args[2]);
        System.out.println("READY consumer");
        System.out.flush();
        while (true) {
            String[] command = Watchdog.commands().take().trim().split("\\s+");
            switch (command[0]) {
                case "run" -> {
                    stop = false;
                    Thread runner = new Thread(() -> run(service, out, command[1], Integer.parseInt(command[2]),
                            Integer.parseInt(command[3])), "run-" + command[1]);
                    runner.start();
                }
                case "stop" -> stop = true;
                case "view" -> System.out.println("VIEW " + view(runtime, config.key()));
                default -> System.out.println("ERROR unknown command " + command[0]);
            }
            System.out.flush();
        }
    }

    private static String view(RpcRuntime runtime, ServiceKey key) {
        try {
            List<ProviderInfo> providers = runtime.inspect().providers(key);
            return String.join(",", providers.stream().map(p -> p.host() + ":" + p.port()).sorted().toList());
        } catch (RuntimeException e) {
            return "unreadable:" + e.getClass().getSimpleName();
        }
    }

    /** Set by {@code stop}: the run in progress starts no more calls. */
    private static volatile boolean stop;

    private static void run(CountingService service, Path out, String name, int seconds, int rate) {
        try {
            calls(service, out, name, seconds, rate);
        } catch (Exception e) {
            System.out.println("ERROR run " + name + " failed: " + e);
        }
        System.out.flush();
    }

    private static void calls(CountingService service, Path out, String name, int seconds, int rate) throws Exception {
        Queue<String> records = new ConcurrentLinkedQueue<>();
        Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
        ExecutorService pool = Executors.newCachedThreadPool();
        long t0 = System.currentTimeMillis();
        System.out.println("STARTED " + name + " t0=" + t0);
        System.out.flush();
        long startNanos = System.nanoTime();
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        int total = seconds * rate;
        int n = 0;
        for (; n < total && !stop; n++) {
            LockSupport.parkNanos(startNanos + n * periodNanos - System.nanoTime());
            String id = name + "-" + n;
            if (!inFlight.tryAcquire()) {
                long now = System.currentTimeMillis();
                records.add(id + "\t" + now + "\t" + now + "\tFAIL\tconsumer-saturated");
                continue;
            }
            pool.execute(() -> {
                long start = System.currentTimeMillis();
                String outcome;
                try {
                    outcome = "OK\t" + service.call(id);
                } catch (RuntimeException e) {
                    String message = String.valueOf(e.getMessage()).replaceAll("\\s+", " ");
                    outcome = "FAIL\t" + e.getClass().getSimpleName() + ": "
                            + message.substring(0, Math.min(160, message.length()));
                } finally {
                    inFlight.release();
                }
                records.add(id + "\t" + start + "\t" + System.currentTimeMillis() + "\t" + outcome);
            });
        }
        pool.shutdown();
        pool.awaitTermination((long) TIMEOUT_MS * (RETRIES + 2), TimeUnit.MILLISECONDS);
        Files.write(out.resolve(name + ".calls"), String.join("\n", records).concat("\n").getBytes(StandardCharsets.UTF_8));
        long failed = records.stream().filter(r -> r.contains("\tFAIL\t")).count();
        System.out.println("DONE " + name + " started=" + n + " recorded=" + records.size() + " failed=" + failed);
    }
}
