package io.kestrel.rpc.perf.soak.attack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * One attack: its threads repeat {@link #cycle()} (typically: connect, attack until the provider
 * closes the connection) until {@link #stop()}, counting what happens. A cycle that fails in an
 * unexpected way is counted as an error and retried after a pause, so an attack never ends early
 * and never spins.
 */
abstract class Attack {
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    final AttackKind kind;
    final AttackTarget target;
    private final LongAdder opened = new LongAdder();
    private final LongAdder closed = new LongAdder();
    private final LongAdder lifetimeMillis = new LongAdder();
    private final AtomicLong lifetimeMax = new AtomicLong();
    private final LongAdder requests = new LongAdder();
    private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
    private final LongAdder errors = new LongAdder();
    private final AtomicReference<String> firstError = new AtomicReference<>("");
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new ArrayList<>();
    volatile boolean running;

    Attack(AttackKind kind, AttackTarget target) {
        this.kind = kind;
        this.target = target;
    }

    /** Threads that run {@link #cycle()}; 1 unless an attack says otherwise. */
    int threadCount() {
        return 1;
    }

    /** One round of the attack; returns when the provider closed the connection(s) or the attack stops. */
    abstract void cycle() throws IOException, InterruptedException;

    /** Whether the counters show the provider met this attack with the limit it aims at. */
    abstract boolean met(AttackResult r);

    /** How the attack ran, for the report ("" if nothing to say). */
    String note() {
        return "";
    }

    final void start() {
        running = true;
        for (int i = 0; i < threadCount(); i++) {
            Thread t = new Thread(this::loop, "attack-" + kind.label + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** Stops the threads: closes every socket the attack holds, then waits (at most 5 s) for them. */
    final void stop() throws InterruptedException {
        running = false;
        for (Socket s : open) {
            closeQuietly(s);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Thread t : threads) {
            t.interrupt();
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                error(new IllegalStateException(t.getName() + " did not stop within 5 s"));
            }
        }
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    private void loop() {
        while (running) {
            try {
                cycle();
            } catch (InterruptedException e) {
                if (running) {
                    error(e);
                }
                return;
            } catch (IOException | RuntimeException e) {
                if (!running) {
                    return;
                }
                error(e);
                pause(200);
            }
        }
    }

    /** A socket to the provider, counted as opened; a small receive buffer makes an unread one fill quickly. */
    final Socket connect(boolean smallReceiveBuffer, InetAddress localAddress) throws IOException {
        Socket s = new Socket();
        open.add(s);
        try {
            if (smallReceiveBuffer) {
                s.setReceiveBufferSize(4096);
            }
            if (localAddress != null) {
                s.bind(new InetSocketAddress(localAddress, 0));
            }
            s.connect(target.address(), CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            release(s);
            throw e;
        }
        opened.increment();
        return s;
    }

    /** The provider closed {@code s}, opened at {@code openedAtNanos}: counted, and the socket released. */
    final void closedByProvider(Socket s, long openedAtNanos) {
        if (!running) { // our own stop closed it
            release(s);
            return;
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - openedAtNanos);
        closed.increment();
        lifetimeMillis.add(millis);
        lifetimeMax.accumulateAndGet(millis, Math::max);
        release(s);
    }

    /** Closes {@code s} (our own close, not counted) and forgets it. */
    final void release(Socket s) {
        closeQuietly(s);
        open.remove(s);
    }

    final void requestWritten() {
        requests.increment();
    }

    final void requestsWritten(int n) {
        requests.add(n);
    }

    final void answer(String status) {
        answers.computeIfAbsent(status, k -> new LongAdder()).increment();
    }

    final void error(Throwable t) {
        errors.increment();
        String text = t.getClass().getSimpleName() + ": " + t.getMessage();
        firstError.compareAndSet("", text.length() > 200 ? text.substring(0, 200) + "..." : text);
    }

    final AttackResult result() {
        long c = closed.sum();
        Map<String, Long> a = new TreeMap<>();
        answers.forEach((k, v) -> a.put(k, v.sum()));
        AttackResult r = new AttackResult(kind, opened.sum(), c, c == 0 ? 0 : lifetimeMillis.sum() / c,
                lifetimeMax.get(), requests.sum(), a, errors.sum(), firstError.get(), false, note());
        return new AttackResult(r.kind(), r.opened(), r.closedByProvider(), r.lifetimeMeanMillis(),
                r.lifetimeMaxMillis(), r.requests(), r.answers(), r.errors(), r.firstError(), met(r), r.note());
    }

    final void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
