package io.kestrel.rpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.fail;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/** Real ZooKeeper servers on 127.0.0.1 with short ticks, and small helpers shared by the registry tests. */
final class ZooKeeperTestSupport {
    static final Duration SESSION = Duration.ofSeconds(3);
    static final Duration AWAIT = Duration.ofSeconds(20);
    private static final AtomicInteger SERVICE_COUNTER = new AtomicInteger();

    private ZooKeeperTestSupport() {
    }

    /** A loopback-only spec; tick 250 ms allows sessions of 0.25..5 s. */
    static InstanceSpec loopbackSpec(int serverId, int tickMs) {
        return new InstanceSpec(null, -1, -1, -1, true, serverId, tickMs, -1,
                Map.of("clientPortAddress", "127.0.0.1", "admin.enableServer", "false"), "127.0.0.1");
    }

    static TestingServer startServer() throws Exception {
        return new TestingServer(loopbackSpec(-1, 250), true);
    }

    static RegistryConfig config(String connectString) {
        return RegistryConfig.builder()
                .address("zookeeper://" + connectString)
                .sessionTimeout(SESSION)
                .connectionTimeout(Duration.ofSeconds(5))
                .build();
    }

    static ZooKeeperRegistry registry(String connectString) {
        return (ZooKeeperRegistry) new ZooKeeperRegistryFactory().create(config(connectString));
    }

    static ServiceKey uniqueService(String version, String group) {
        return new ServiceKey("com.example.Echo" + SERVICE_COUNTER.incrementAndGet(), version, group);
    }

    static ProviderInfo provider(ServiceKey service, int port) {
        return new ProviderInfo("127.0.0.1", port, service, List.of((byte) 8, (byte) 2), 100, List.of("echo"));
    }

    static int unusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + AWAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("Timed out after " + AWAIT.toSeconds() + " s waiting for: " + what);
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling interval, not an assertion
        }
    }

    /** Records every list it is told. */
    static final class RecordingListener implements ProviderListener {
        final BlockingQueue<List<ProviderInfo>> calls = new LinkedBlockingQueue<>();
        final List<List<ProviderInfo>> history = new ArrayList<>();
        volatile List<ProviderInfo> last;
        /** The latest list {@link #await} consumed (test thread only). */
        private List<ProviderInfo> consumed;

        @Override
        public synchronized void providersChanged(ServiceKey service, List<ProviderInfo> providers) {
            last = providers;
            history.add(providers);
            calls.add(providers);
        }

        /**
         * Consumes told lists until the latest one satisfies {@code condition} and returns it. Lists told
         * before are consumed too, so a later {@code calls.poll} sees only what comes after.
         */
        List<ProviderInfo> await(String what, Predicate<List<ProviderInfo>> condition) throws InterruptedException {
            long deadline = System.nanoTime() + AWAIT.toNanos();
            List<ProviderInfo> latest = consumed;
            while (true) {
                for (List<ProviderInfo> next; (next = calls.poll()) != null; ) {
                    latest = next;
                }
                consumed = latest;
                if (latest != null && condition.test(latest)) {
                    return latest;
                }
                long left = deadline - System.nanoTime();
                List<ProviderInfo> next = left > 0 ? calls.poll(left, TimeUnit.NANOSECONDS) : null;
                if (next == null) {
                    fail("Timed out after " + AWAIT.toSeconds() + " s waiting for " + what + "; told: " + history());
                }
                latest = next;
            }
        }

        synchronized List<List<ProviderInfo>> history() {
            return new ArrayList<>(history);
        }
    }
}
