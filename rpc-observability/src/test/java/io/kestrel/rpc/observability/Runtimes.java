package io.kestrel.rpc.observability;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Runtimes on loopback for these tests, and a bounded wait. */
final class Runtimes {
    private Runtimes() {
    }

    static ProtocolConfig.Builder loopback() {
        return ProtocolConfig.builder().host("127.0.0.1").port(0).shutdownTimeout(Duration.ofSeconds(2));
    }

    /** Exports {@code impl} on a free port of a runtime built from {@code builder}. */
    static RpcRuntime provider(RpcRuntime.Builder builder, ProtocolConfig protocol, Greeter impl) {
        RpcRuntime runtime = builder.protocol(protocol).build();
        runtime.export(ServiceConfig.builder(Greeter.class, impl).build());
        return runtime;
    }

    /** A direct reference to {@code provider}. */
    static Greeter refer(RpcRuntime consumer, RpcRuntime provider, Duration timeout) {
        return consumer.refer(ReferenceConfig.builder(Greeter.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(timeout).retries(0).build());
    }

    /** {@link Await#until} with at most 15 s; a timeout fails the test naming {@code what}. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(15), condition);
    }
}
