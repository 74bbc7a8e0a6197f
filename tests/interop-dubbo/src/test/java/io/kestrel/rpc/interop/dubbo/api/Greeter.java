package io.kestrel.rpc.interop.dubbo.api;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The implementation, identical on both sides; where request context is read or written it goes through
 * the functions given (Kestrel's RpcContext on one side, Dubbo's on the other).
 */
public class Greeter implements GreetingService {
    public final AtomicInteger calls = new AtomicInteger();
    private final String side;
    private final Function<String, String> requestAttachment;
    private final BiFunction<String, String, Object> setResponseAttachment;

    public Greeter(String side, Function<String, String> requestAttachment,
            BiFunction<String, String, Object> setResponseAttachment) {
        this.side = side;
        this.requestAttachment = requestAttachment;
        this.setResponseAttachment = setResponseAttachment;
    }

    @Override
    public String hello(String name) {
        calls.incrementAndGet();
        return "hello " + name + " from " + side;
    }

    @Override
    public Order place(Order order) {
        calls.incrementAndGet();
        order.setStatus("accepted by " + side + ", total " + order.total());
        return order;
    }

    @Override
    public int add(int a, long b) {
        return (int) (a + b);
    }

    @Override
    public CompletableFuture<String> helloAsync(String name) {
        return CompletableFuture.supplyAsync(() -> "async hello " + name + " from " + side);
    }

    @Override
    public String reject(String reason) throws OrderRejectedException {
        throw new OrderRejectedException(reason);
    }

    @Override
    public String explode(String message) {
        throw new InventoryException(message);
    }

    @Override
    public String slow(long millis) {
        try {
            Thread.sleep(millis); // the work being timed out, not synchronisation
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "slept " + millis;
    }

    @Override
    public String attachment(String key) {
        String value = requestAttachment.apply(key);
        setResponseAttachment.apply("echo-" + key, "seen " + value);
        return value;
    }
}
