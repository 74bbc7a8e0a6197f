package io.kestrel.rpc.demo.consumer;

import java.time.Duration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * Runs the demo consumer once and exits: status 0 when every call succeeded, 1 otherwise. Point it at the
 * provider's registry with {@code -Drpc.registry.address=embedded://PORT} (the provider's embedded
 * registry, on this host) or {@code zookeeper://host:port}; {@code -Ddemo.threads}
 * (default 10) and {@code -Ddemo.seconds} (default 3) shape the throughput run.
 */
public final class ConsumerMain {
    private ConsumerMain() {
    }

    public static void main(String[] args) {
        int status;
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(ConsumerConfig.class)) {
            DemoClient client = context.getBean(DemoClient.class);
            client.showCalls(System.out);
            long errors = client.measureThroughput(System.out, Integer.getInteger("demo.threads", 10),
                    Duration.ofSeconds(Integer.getInteger("demo.seconds", 3)));
            status = errors == 0 ? 0 : 1;
        } catch (Exception e) {
            System.err.println("Demo consumer failed: " + e);
            e.printStackTrace();
            status = 1;
        }
        System.out.println(status == 0 ? "demo consumer: OK" : "demo consumer: FAILED");
        System.exit(status);
    }
}
