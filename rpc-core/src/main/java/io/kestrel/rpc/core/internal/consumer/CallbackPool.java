package io.kestrel.rpc.core.internal.consumer;

import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * The runtime's own executor for the futures of asynchronous methods, used unless the application names one.
 *
 * <p>Not the common fork-join pool: on a machine or container with two CPUs or fewer its parallelism is 1,
 * and {@code CompletableFuture} then runs every {@code *Async} stage given that pool on a new thread of its
 * own (a thread started and ended per call). This pool keeps at least two daemon workers
 * ({@code kestrel-callback-N}), in FIFO mode, for the callbacks of all of a runtime's references.
 */
public final class CallbackPool {
    /**
     * System property: {@code pool} (default) completes asynchronous methods' futures on the callback executor;
     * {@code direct} completes them on the thread that ends the call (for an answer, the connection's I/O thread),
     * without a hand-off, and calls streams' response observers on the connection's I/O thread as well. Only for
     * applications whose callbacks and stream observers never block and are short: they then run on the I/O thread
     * that reads every answer of its connection (an observer sending from there needs credit: {@code isReady()}).
     */
    public static final String CALLBACKS_PROPERTY = "kestrel.rpc.consumer.callbacks";

    /** Whether {@value #CALLBACKS_PROPERTY} is {@code direct}: the default of runtimes that do not choose. */
    public static final boolean DIRECT = direct(System.getProperty(CALLBACKS_PROPERTY, "pool"));

    private CallbackPool() {
    }

    /**
     * Reads a value of {@value #CALLBACKS_PROPERTY}: true for {@code direct}, false for {@code pool}; anything else
     * is logged as a mistake (with the choices) and read as {@code pool}, the safe choice.
     */
    static boolean direct(String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (!v.equals("pool") && !v.equals("direct")) {
            org.slf4j.LoggerFactory.getLogger(CallbackPool.class).error("-D{}={} is not a choice: use 'pool' (futures of"
                    + " asynchronous methods complete on the callback executor; the default) or 'direct' (on the thread"
                    + " that ends the call; only for callbacks that never block). Using 'pool'", CALLBACKS_PROPERTY,
                    v.length() > 40 ? v.substring(0, 40) + "..." : v);
            return false;
        }
        return v.equals("direct");
    }

    /**
     * The callback executor of a runtime whose asynchronous futures complete where the call ends ({@code
     * callbacks=direct}), and whose streams' observers are called on the connection's I/O thread
     * ({@link StreamCalls}): {@code executor} itself for everything else, marked for {@link CallerFuture#handOff}.
     */
    public static Executor direct(Executor executor) {
        return new Direct(executor);
    }

    /** See {@link #direct(Executor)}. */
    record Direct(Executor executor) implements Executor {
        @Override
        public void execute(Runnable task) {
            executor.execute(task);
        }
    }

    /** A new pool; the runtime that made it shuts it down when it closes. */
    public static ForkJoinPool create() {
        int parallelism = Math.max(2, Runtime.getRuntime().availableProcessors());
        return new ForkJoinPool(parallelism, pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName("kestrel-callback-" + t.getPoolIndex());
            t.setDaemon(true);
            return t;
        }, null, true);
    }
}
