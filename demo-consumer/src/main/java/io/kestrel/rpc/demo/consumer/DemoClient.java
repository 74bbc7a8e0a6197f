package io.kestrel.rpc.demo.consumer;

import io.kestrel.rpc.demo.bid.Bid;
import io.kestrel.rpc.demo.bid.BidFixtures;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;
import io.kestrel.rpc.demo.bid.BidService;
import io.kestrel.rpc.demo.bid.SeatBid;
import io.kestrel.rpc.demo.user.User;
import io.kestrel.rpc.demo.user.UserNotFoundException;
import io.kestrel.rpc.demo.user.UserService;
import io.kestrel.rpc.demo.user.UserStatus;
import io.kestrel.rpc.spring.RpcReference;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Calls the demo services through proxies injected with {@link RpcReference} (one on a field, one on a
 * setter) and prints what it gets.
 */
public class DemoClient {
    @RpcReference(version = "1.0")
    private UserService users;

    private BidService bids;

    /** Setter injection works as well as field injection. */
    @RpcReference(version = "1.0")
    public void setBidService(BidService bids) {
        this.bids = bids;
    }

    /**
     * A few calls of each kind, printed; throws if an answer is not what the provider must return.
     */
    public void showCalls(PrintStream out) {
        // mutable lists: hessian2 cannot rebuild JDK immutable collections (List.of), the others can
        User ada = users.create(new User(0, "Ada Lovelace", "ada@example.org", null, UserStatus.ACTIVE,
                new ArrayList<>(List.of("math", "engines"))));
        out.println("create(Ada)      -> " + ada);
        User alan = users.create(new User(0, "Alan Turing", "alan@example.org", null, null,
                new ArrayList<>(List.of("codes"))));
        out.println("create(Alan)     -> id " + alan.getId() + ", status " + alan.getStatus());
        User got = users.get(ada.getId());
        out.println("get(" + ada.getId() + ")           -> " + got.getName() + " <" + got.getEmail() + ">, created "
                + got.getCreated());
        check(got.equals(ada), "get returned " + got + " for " + ada);
        List<User> page = users.list(0, 10);
        out.println("list(0, 10)      -> " + page.size() + " users: "
                + page.stream().map(u -> u.getId() + " " + u.getName()).collect(Collectors.joining(", ")));
        out.println("exists(" + alan.getId() + ")        -> " + users.exists(alan.getId()) + ", exists(999) -> "
                + users.exists(999));
        check(users.exists(alan.getId()) && !users.exists(999), "exists answered wrongly");
        try {
            users.get(999);
            throw new IllegalStateException("get(999) should have failed");
        } catch (UserNotFoundException e) {
            out.println("get(999)         -> " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        BidRequest request = BidFixtures.sampleRequest();
        BidResponse response = bids.bid(request);
        check(response.equals(BidFixtures.responseFor(request)), "bid response differs from the expected one");
        List<Bid> all = new ArrayList<>();
        for (SeatBid seat : response.getSeatBids()) {
            all.addAll(seat.getBids());
        }
        out.println("bid(" + request.getImpressions().size() + " impressions) -> " + all.size() + " bids, prices "
                + all.stream().map(Bid::getPrice).map(BigDecimal::toPlainString).collect(Collectors.joining(", "))
                + " " + response.getCurrency() + ", response id " + response.getId());
    }

    /**
     * Calls {@code bid} from {@code threads} threads for {@code duration} and prints the calls per second.
     *
     * @return the number of failed calls
     */
    public long measureThroughput(PrintStream out, int threads, Duration duration) throws InterruptedException {
        BidRequest request = BidFixtures.sampleRequest();
        long warmUpEnd = System.nanoTime() + Duration.ofMillis(500).toNanos();
        while (System.nanoTime() < warmUpEnd) { // JIT and connection warm-up, not measured
            bids.bid(request);
        }
        AtomicLong calls = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(threads);
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        try {
                            bids.bid(request);
                            calls.incrementAndGet();
                        } catch (RuntimeException e) {
                            errors.incrementAndGet();
                            firstError.compareAndSet(null, e);
                        }
                    }
                } finally {
                    done.countDown();
                }
            }, "demo-caller-" + t);
            worker.setDaemon(true);
            worker.start();
        }
        done.await();
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf("throughput: bid() from %d threads: %d calls in %.2f s = %.0f calls/s, %d errors%n", threads,
                calls.get(), seconds, calls.get() / seconds, errors.get());
        if (firstError.get() != null) {
            out.println("first error: " + firstError.get());
        }
        return errors.get();
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException(message);
        }
    }
}
