package io.kestrel.rpc.perf.handoff;

import io.kestrel.rpc.perf.support.ProcessCpu;
import io.kestrel.rpc.transport.spi.TransportThreads;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * CPU time and wall time of the thread hand-offs a provider's call goes through, with nothing else: no
 * socket, no serialization, no service. A driver thread starts each round trip and parks until it ends; one
 * round trip is in flight at a time, so every hand-off wakes a parked thread, as it does for synchronous
 * callers at moderate load.
 *
 * <ul>
 *   <li>{@code direct}: driver -> a Netty NIO event loop, which ends the trip (the shape of a call the I/O
 *       thread answers itself: direct dispatch, or the minimal raw-Netty RPC);</li>
 *   <li>{@code pool}: driver -> event loop -> the provider's business pool ({@link TransportThreads#businessPool}) -> back to the event
 *       loop (as the answer's write is), which ends the trip: the default dispatch's two extra hand-offs;</li>
 *   <li>{@code threads}: driver -> a parked platform thread -> driver, {@code LockSupport} only: the price of
 *       one wake-up of a parked thread, twice.</li>
 * </ul>
 * The difference between {@code pool} and {@code direct} is what the business pool adds to every call on this
 * machine, independent of TPS noise. Process CPU covers every thread (user and system time).
 *
 * <pre>
 * perf-test/run.sh handoff [--trips N] [--rounds N]     (default 100,000 trips, 5 rounds after 1 of warm-up)
 * </pre>
 */
public final class HandoffCostMain {
    private static final int WARMUP_ROUNDS = 1;

    private HandoffCostMain() {
    }

    public static void main(String[] args) throws Exception {
        int trips = 100_000;
        int rounds = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--trips" -> trips = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("Unknown option '" + args[i]
                        + "'; known: --trips N, --rounds N");
            }
        }
        System.out.printf("Thread hand-offs, %,d round trips x %d rounds (after %d of warm-up), medians per trip:%n",
                trips, rounds, WARMUP_ROUNDS);
        List<Result> results = measure(trips, rounds);
        for (Result r : results) {
            System.out.printf("  %-52s %,7.2f us CPU (process), %,7.2f us wall%n", r.scenario(), r.cpuMicros(),
                    r.wallMicros());
        }
        System.out.printf("The business pool adds %,.2f us of CPU per call here (pool minus direct).%n",
                results.get(1).cpuMicros() - results.get(0).cpuMicros());
    }

    /** One scenario's medians per round trip. */
    public record Result(String scenario, double cpuMicros, double wallMicros) {
    }

    /** Runs every scenario {@code rounds} times (after one warm-up round); results in the class comment's order. */
    public static List<Result> measure(int trips, int rounds) {
        EventLoopGroup group = TransportThreads.eventLoops(1, "handoff-loop");
        ExecutorService pool = TransportThreads.businessPool(200, 0, Duration.ofMinutes(1), Thread::new);
        PingPong pingPong = new PingPong();
        try {
            EventLoop loop = group.next();
            List<Scenario> scenarios = List.of(
                    new Scenario("direct (event loop ends the trip)", done -> loop.execute(done)),
                    new Scenario("pool (event loop -> business pool -> event loop)",
                            done -> loop.execute(() -> pool.execute(() -> loop.execute(done)))),
                    new Scenario("threads (parked thread -> driver)", pingPong));
            for (int r = 0; r < WARMUP_ROUNDS + rounds; r++) {
                for (Scenario s : scenarios) {
                    s.run(trips, r >= WARMUP_ROUNDS);
                }
            }
            List<Result> results = new ArrayList<>();
            for (Scenario s : scenarios) {
                results.add(new Result(s.name, median(s.cpuMicros), median(s.wallMicros)));
            }
            return results;
        } finally {
            pingPong.stop();
            pool.shutdownNow();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** Starts one round trip that runs {@code done} on its last thread. */
    private interface Trip {
        void start(Runnable done);
    }

    private static final class Scenario {
        final String name;
        final Trip trip;
        final List<Double> cpuMicros = new ArrayList<>();
        final List<Double> wallMicros = new ArrayList<>();

        Scenario(String name, Trip trip) {
            this.name = name;
            this.trip = trip;
        }

        void run(int trips, boolean record) {
            Thread driver = Thread.currentThread();
            Done done = new Done(driver);
            long cpu0 = ProcessCpu.processCpuNanos();
            long wall0 = System.nanoTime();
            for (int i = 0; i < trips; i++) {
                done.ended = false;
                trip.start(done);
                while (!done.ended) {
                    LockSupport.park(this);
                }
            }
            long wall = System.nanoTime() - wall0;
            long cpu = ProcessCpu.processCpuNanos() - cpu0;
            if (record) {
                cpuMicros.add(cpu / 1_000.0 / trips);
                wallMicros.add(wall / 1_000.0 / trips);
            }
        }
    }

    /** Ends a trip: marks it and wakes the driver. */
    private static final class Done implements Runnable {
        private final Thread driver;
        volatile boolean ended;

        Done(Thread driver) {
            this.driver = driver;
        }

        @Override
        public void run() {
            ended = true;
            LockSupport.unpark(driver);
        }
    }

    /** A platform thread that runs each handed task after parking for it: LockSupport only, no queue. */
    private static final class PingPong implements Trip {
        private final Thread thread;
        private volatile Runnable handed;
        private volatile boolean stopped;

        PingPong() {
            thread = new Thread(this::loop, "handoff-pingpong");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void start(Runnable done) {
            handed = done;
            LockSupport.unpark(thread);
        }

        private void loop() {
            while (!stopped) {
                Runnable task = handed;
                if (task == null) {
                    LockSupport.park(this);
                    continue;
                }
                handed = null;
                task.run();
            }
        }

        void stop() {
            stopped = true;
            LockSupport.unpark(thread);
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
