package io.kestrel.rpc.observability;

import io.kestrel.rpc.api.RpcContext;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@link Greeter}; remembers the attachments of the last call per method. */
public class GreeterImpl implements Greeter {
    private final String name;
    private volatile Greeter next;
    private final CountDownLatch held = new CountDownLatch(1);
    /** Request attachments of the last call of each method. */
    public final Map<String, Map<String, String>> lastAttachments = new ConcurrentHashMap<>();

    public GreeterImpl(String name) {
        this.name = name;
    }

    /** Makes {@link #hop} call {@code next}. */
    public void next(Greeter next) {
        this.next = next;
    }

    /** Lets every held call return, and any later one at once. */
    public void release() {
        held.countDown();
    }

    private void seen(String method) {
        lastAttachments.put(method, Map.copyOf(RpcContext.current().getAttachments()));
    }

    @Override
    public String greet(String who) {
        seen("greet");
        return "hello " + who + " from " + name;
    }

    @Override
    public String fail(String message) {
        seen("fail");
        throw new IllegalStateException(message);
    }

    @Override
    public String slow(long millis) {
        seen("slow");
        try {
            Thread.sleep(millis); // the service's own work, which the caller's timeout is shorter than
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "slow " + millis;
    }

    @Override
    public String hold(String who) {
        seen("hold");
        try {
            if (!held.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("hold was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "held " + who;
    }

    @Override
    public String hop(String who) {
        seen("hop");
        Greeter n = next;
        return n == null ? greet(who) : name + " -> " + n.hop(who);
    }

    @Override
    public CompletableFuture<String> greetAsync(String who) {
        seen("greetAsync");
        return CompletableFuture.completedFuture("hello " + who + " from " + name);
    }
}
