package io.kestrel.rpc.observability;

import java.util.concurrent.CompletableFuture;

/** The test service: a greeting, a failure, a slow call, a call held until released, and a hop to a next provider. */
public interface Greeter {
    String greet(String name);

    String fail(String message);

    String slow(long millis);

    /** Returns once {@link GreeterImpl#release()} is called (at most 10 s). */
    String hold(String name);

    /** Greets through the next provider when one is set, else itself. */
    String hop(String name);

    CompletableFuture<String> greetAsync(String name);
}
