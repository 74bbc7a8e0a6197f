package io.kestrel.rpc.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * A provider and a consumer through a real ZooKeeper, both reporting to one Prometheus registry (told
 * apart by an {@code application} tag); the scrape text is read back after real calls. The scrape is
 * also written to {@code target/prometheus-scrape.txt} (the README's excerpt comes from it).
 */
class PrometheusScrapeTest {
    private static final String SERVICE = Greeter.class.getName();

    @Test
    void aScrapeShowsTimersHistogramsGaugesAndTheRegistryState() throws Exception {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (TestingServer zk = new TestingServer(true)) {
            RegistryConfig registry = RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                    .sessionTimeout(Duration.ofSeconds(30)).build();
            KestrelMetrics providerMetrics = KestrelMetrics.builder(prometheus).tags(Tags.of("application", "provider")).build();
            KestrelMetrics consumerMetrics = KestrelMetrics.builder(prometheus).tags(Tags.of("application", "consumer"))
                    .percentiles(0.5, 0.99).build();
            try (RpcRuntime provider = Runtimes.provider(providerMetrics.addTo(RpcRuntime.builder()).registry(registry),
                    Runtimes.loopback().build(), new GreeterImpl("p"));
                    RpcRuntime consumer = consumerMetrics.addTo(RpcRuntime.builder()).registry(registry).build()) {
                providerMetrics.bindTo(provider);
                consumerMetrics.bindTo(consumer);
                Greeter greeter = consumer.refer(ReferenceConfig.builder(Greeter.class).timeout(Duration.ofSeconds(5)).build());
                for (int i = 0; i < 3; i++) {
                    greeter.greet("ada");
                }
                assertThrows(IllegalStateException.class, () -> greeter.fail("no"));

                String scrape = prometheus.scrape();
                Files.writeString(Path.of("target", "prometheus-scrape.txt"), scrape);
                String greetOk = "application=\"consumer\",rpc_method=\"greet\",rpc_service=\"" + SERVICE
                        + "\",rpc_system=\"kestrel\",serialization=\"fory\",status=\"ok\"";
                assertEquals(3, value(scrape, "rpc_client_duration_seconds_count{" + greetOk + "}"), scrape);
                assertTrue(value(scrape, "rpc_client_duration_seconds_sum{" + greetOk + "}") > 0);
                assertTrue(value(scrape, "rpc_client_duration_seconds_bucket{" + greetOk + ",le=\"+Inf\"}") == 3);
                // with a histogram, Prometheus gets buckets (histogram_quantile) rather than client-side percentiles
                assertTrue(value(scrape, "rpc_client_duration_seconds_bucket{" + greetOk + ",le=\"0.001\"}") <= 3);
                String served = "application=\"provider\",rpc_method=\"%s\",rpc_service=\"" + SERVICE
                        + "\",rpc_system=\"kestrel\",serialization=\"fory\",status=\"%s\"";
                assertEquals(3, value(scrape, "rpc_server_duration_seconds_count{" + served.formatted("greet", "ok") + "}"));
                assertEquals(1, value(scrape, "rpc_server_duration_seconds_count{"
                        + served.formatted("fail", "service_error") + "}"));
                assertEquals(consumer.inspect().snapshot().client().wire().bytesWritten(),
                        value(scrape, "kestrel_rpc_client_sent_bytes_total{application=\"consumer\"}"));
                assertEquals(1, value(scrape, "kestrel_rpc_client_connections{application=\"consumer\"}"));
                assertEquals(1, value(scrape, "kestrel_rpc_server_connections{application=\"provider\"}"));
                assertEquals(0, value(scrape, "kestrel_rpc_server_calls_active{application=\"provider\"}"));
                assertEquals(1, value(scrape, "kestrel_rpc_registry_connected{application=\"provider\"}"));
                assertEquals(1, value(scrape, "kestrel_rpc_registry_connected{application=\"consumer\"}"));

                zk.stop();
                Runtimes.await("the registry gauge reads 0 while ZooKeeper is down", () -> value(prometheus.scrape(),
                        "kestrel_rpc_registry_connected{application=\"provider\"}") == 0);
                zk.restart();
                Runtimes.await("the registry gauge reads 1 once ZooKeeper is back", () -> value(prometheus.scrape(),
                        "kestrel_rpc_registry_connected{application=\"provider\"}") == 1);
            }
        }
    }

    /** The value of the series whose name and labels are exactly {@code series}; fails when absent. */
    static double value(String scrape, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(scrape);
        if (!m.find()) {
            long near = scrape.lines().filter(l -> l.startsWith(series.substring(0, series.indexOf('{')))).count();
            throw new AssertionError("no series " + series + " in the scrape (" + near + " series of that name)");
        }
        return Double.parseDouble(m.group(1));
    }
}
