package io.kestrel.rpc.perf.soak.attack;

import io.kestrel.rpc.transport.Status;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The greedy client: one connection that starts {@link AttackPlan#GREEDY_RATE} requests a second,
 * at most {@link AttackPlan#GREEDY_WINDOW} outstanding, each a {@code SoakService.existsLater} call
 * the provider answers after {@link AttackPlan#GREEDY_DELAY_MILLIS} ms, carrying an attachment of
 * {@link AttackPlan#UNIT} bytes. The provider holds each admitted request's bytes until it answers,
 * so the client asks for more than the budget (rate x delay x unit) and must get SERVER_BUSY for the
 * excess, OK for the rest. It reads every answer; answers are counted by status, SERVER_BUSY by the
 * limit its message names.
 *
 * <p>Like the framework's own consumer it defines the method with its first request on a connection,
 * but with a small one whose answer it awaits before pipelining: a defining request refused over the
 * budget has its body skipped unread, so its definition would be lost with it.
 */
final class GreedyAttack extends Attack {
    static final String OK = "OK";
    static final String BUSY_BUDGET = "SERVER_BUSY (memory budget)";

    private final byte[] define;
    private final byte[] body;

    GreedyAttack(AttackTarget target) {
        super(AttackKind.GREEDY, target);
        String pad = "g".repeat(AttackPlan.UNIT);
        byte[] id = target.encode(2L);
        byte[] delay = target.encode(AttackPlan.GREEDY_DELAY_MILLIS);
        this.define = RawFrames.requestBody(0, target.existsLaterDescriptor(), 10_000, null, id,
                target.encode(0));
        this.body = RawFrames.requestBody(0, null, 10_000, pad, id, delay);
    }

    @Override
    void cycle() throws IOException, InterruptedException {
        Socket s = connect(false, null);
        long openedAt = System.nanoTime();
        long id = 1;
        try {
            id = define(s, openedAt);
        } catch (IOException e) {
            release(s);
            throw e;
        }
        if (id < 0) {
            return;
        }
        Semaphore window = new Semaphore(AttackPlan.GREEDY_WINDOW);
        Thread reader = new Thread(() -> read(s, window, openedAt), "attack-greedy-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            OutputStream out = s.getOutputStream();
            long interval = TimeUnit.SECONDS.toNanos(1) / AttackPlan.GREEDY_RATE;
            long next = System.nanoTime();
            for (; running && reader.isAlive(); id++) {
                while (running && !window.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                    if (!reader.isAlive()) {
                        return;
                    }
                }
                if (!running) {
                    break;
                }
                out.write(RawFrames.requestHeader(target.serializationId(), id, body.length, false));
                out.write(body);
                requestWritten();
                next += interval;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                } else {
                    next = System.nanoTime(); // behind: no burst to catch up
                }
            }
        } catch (IOException e) {
            reader.join(2_000); // if the provider closed the connection, the reader sees it and counts it
            if (running && reader.isAlive()) {
                throw e;
            }
        } finally {
            release(s);
            reader.join(5_000);
        }
    }

    /**
     * Defines method reference 0 with a small call, repeated while it is refused; returns the next
     * request id, or -1 if the attack stopped or the provider closed the connection meanwhile.
     */
    private long define(Socket s, long openedAt) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        for (long id = 1; running; id++) {
            s.getOutputStream().write(RawFrames.request(target.serializationId(), id, true, define));
            requestWritten();
            RawFrames.Answer a;
            do {
                try {
                    a = RawFrames.read(in);
                } catch (IOException e) {
                    closedByProvider(s, openedAt);
                    return -1;
                }
            } while (a.isEvent());
            String key = classify(a);
            answer(key);
            if (key.equals(OK)) {
                return id + 1;
            }
            if (!key.startsWith("SERVER_BUSY")) {
                throw new IOException("the greedy client's method definition was answered " + key + ": " + a.message());
            }
            pause(50);
        }
        release(s);
        return -1;
    }

    private void read(Socket s, Semaphore window, long openedAt) {
        try {
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 64 * 1024));
            while (true) {
                RawFrames.Answer a = RawFrames.read(in);
                if (a.isEvent()) {
                    continue; // a heartbeat
                }
                String key = classify(a);
                answer(key);
                if (!key.equals(OK) && !key.equals(BUSY_BUDGET)) {
                    error(new IllegalStateException("answer " + key + " to request " + a.requestId() + ": "
                            + a.message()));
                }
                window.release();
            }
        } catch (IOException e) {
            if (running) {
                error(new IllegalStateException("the provider closed the greedy client's connection: " + e));
                closedByProvider(s, openedAt);
            }
        }
    }

    private static String classify(RawFrames.Answer a) {
        if (a.status() == Status.OK.code()) {
            return OK;
        }
        if (a.status() == Status.SERVER_BUSY.code()) {
            String m = a.message() == null ? "" : a.message();
            return m.contains("memory budget") ? BUSY_BUDGET
                    : m.contains("calls-per-connection") ? "SERVER_BUSY (calls per connection)" : "SERVER_BUSY (other)";
        }
        return Status.name(a.status());
    }

    @Override
    boolean met(AttackResult r) {
        long expected = r.answers(OK) + r.answers(BUSY_BUDGET);
        long all = r.answers().values().stream().mapToLong(Long::longValue).sum();
        return r.answers(OK) > 0 && r.answers(BUSY_BUDGET) > 0 && all == expected;
    }

    @Override
    String note() {
        return AttackPlan.GREEDY_RATE + " requests/s of " + AttackPlan.UNIT / (1 << 20) + " MiB (existsLater answered after "
                + AttackPlan.GREEDY_DELAY_MILLIS + " ms, the bytes in an attachment), at most " + AttackPlan.GREEDY_WINDOW
                + " outstanding";
    }
}
