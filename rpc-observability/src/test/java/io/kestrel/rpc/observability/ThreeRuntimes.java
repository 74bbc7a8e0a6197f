package io.kestrel.rpc.observability;

import io.kestrel.rpc.core.RpcRuntime;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * The tracing tests' three runtimes over loopback sockets, each built with the same tracing: A (a
 * consumer only), B (a {@link Greeter} provider whose {@code hop} calls C) and C (a provider). Closed
 * together.
 */
final class ThreeRuntimes implements AutoCloseable {
    final GreeterImpl b = new GreeterImpl("b");
    final GreeterImpl c = new GreeterImpl("c");
    final RpcRuntime runtimeA;
    final RpcRuntime runtimeB;
    final RpcRuntime runtimeC;
    /** A's reference to B, 5-s timeout. */
    final Greeter aToB;
    /** A's reference to C, 5-s timeout. */
    final Greeter aToC;

    /** @param withTracing adds the tracing under test to a runtime being built */
    ThreeRuntimes(UnaryOperator<RpcRuntime.Builder> withTracing) {
        runtimeC = Runtimes.provider(withTracing.apply(RpcRuntime.builder()), Runtimes.loopback().build(), c);
        runtimeB = Runtimes.provider(withTracing.apply(RpcRuntime.builder()), Runtimes.loopback().build(), b);
        b.next(Runtimes.refer(runtimeB, runtimeC, Duration.ofSeconds(5)));
        runtimeA = withTracing.apply(RpcRuntime.builder()).build();
        aToB = Runtimes.refer(runtimeA, runtimeB, Duration.ofSeconds(5));
        aToC = Runtimes.refer(runtimeA, runtimeC, Duration.ofSeconds(5));
    }

    @Override
    public void close() {
        runtimeA.close();
        runtimeB.close();
        runtimeC.close();
    }
}
