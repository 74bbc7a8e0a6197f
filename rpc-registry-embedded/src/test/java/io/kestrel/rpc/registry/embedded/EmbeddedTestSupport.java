package io.kestrel.rpc.registry.embedded;

import static org.junit.jupiter.api.Assertions.fail;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** What the embedded-server tests share (a small copy of rpc-registry's test support: no test-jar dependency). */
final class EmbeddedTestSupport {
    private static final AtomicInteger SERVICE_COUNTER = new AtomicInteger();
    private static final long AWAIT_MS = 20_000;

    private EmbeddedTestSupport() {
    }

    static ServiceKey uniqueService(String version, String group) {
        return new ServiceKey("com.example.EmbeddedEcho" + SERVICE_COUNTER.incrementAndGet(), version, group);
    }

    static ProviderInfo provider(ServiceKey service, int port) {
        return new ProviderInfo("127.0.0.1", port, service, List.of((byte) 8, (byte) 2), 100, List.of("echo"));
    }

    static int unusedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Keeps the last list it was told. */
    static final class RecordingListener implements ProviderListener {
        volatile List<ProviderInfo> last;

        @Override
        public void providersChanged(ServiceKey service, List<ProviderInfo> providers) {
            last = providers;
        }

        void await(String what, Predicate<List<ProviderInfo>> condition) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AWAIT_MS);
            while (last == null || !condition.test(last)) {
                if (System.nanoTime() > deadline) {
                    fail("Timed out after " + AWAIT_MS + " ms waiting for " + what + "; last told: " + last);
                }
                TimeUnit.MILLISECONDS.sleep(20); // polling interval, not an assertion
            }
        }
    }
}
