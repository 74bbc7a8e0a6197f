package io.kestrel.rpc.observability;

import io.kestrel.rpc.core.RpcRuntime;
import java.time.Duration;

/**
 * Run by {@link WithoutMicrometerTest} in a JVM whose class path has no Micrometer or OpenTelemetry:
 * checks they are really absent, then makes a call between two runtimes (with the access log and
 * ServiceLoader interceptor loading on) and prints "OK " and the answer.
 */
public final class PlainCallMain {
    private PlainCallMain() {
    }

    public static void main(String[] args) {
        for (String absent : new String[] {"io.micrometer.core.instrument.MeterRegistry",
                "io.micrometer.observation.ObservationRegistry", "io.opentelemetry.api.trace.Tracer"}) {
            try {
                Class.forName(absent);
                System.out.println("FAIL: " + absent + " is on the class path");
                System.exit(2);
            } catch (ClassNotFoundException expected) {
                // what this JVM is for
            }
        }
        try (RpcRuntime provider = Runtimes.provider(RpcRuntime.builder().accessLog(true), Runtimes.loopback().build(),
                new GreeterImpl("plain"));
                RpcRuntime consumer = RpcRuntime.builder().accessLog(true).build()) {
            String answer = Runtimes.refer(consumer, provider, Duration.ofSeconds(5)).greet("ada");
            System.out.println("OK " + answer);
        }
    }
}
