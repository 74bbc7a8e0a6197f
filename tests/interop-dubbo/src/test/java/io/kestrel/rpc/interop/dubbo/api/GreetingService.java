package io.kestrel.rpc.interop.dubbo.api;

import java.util.concurrent.CompletableFuture;

/** The service both sides share in the interop tests, as a Dubbo user's API jar would hold it. */
public interface GreetingService {
    String hello(String name);

    /** A nested DTO both ways. */
    Order place(Order order);

    int add(int a, long b);

    CompletableFuture<String> helloAsync(String name);

    /** Throws the declared {@link OrderRejectedException}. */
    String reject(String reason) throws OrderRejectedException;

    /** Throws an unchecked exception of this API jar. */
    String explode(String message);

    /** Sleeps, then answers: for timeouts. */
    String slow(long millis);

    /** Returns the request attachment {@code key} and sets the response attachment "echo-" + key. */
    String attachment(String key);
}
