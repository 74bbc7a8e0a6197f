package io.kestrel.rpc.transport.internal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's platform-thread business pool. Each call goes to the most recently idle worker (a
 * LIFO of parked workers, handed the call directly and unparked), so light traffic keeps reusing the
 * same few threads, whose caches and thread-local serializer instances stay warm. A new worker starts
 * only when none is idle and fewer than {@code maxThreads} run; when all are busy a call waits in a
 * FIFO queue of {@code queueCapacity} (0: none), and beyond that {@link #execute} throws
 * {@link RejectedExecutionException} (the caller answers "busy"). A worker idle for the keep-alive
 * exits. Idle workers park, after the short spin of {@link IdleSpin} where that is on (off by default).
 *
 * <p>All bookkeeping (idle stack, queue, counts) changes under one lock; only the unpark of a worker
 * handed a call and the parking itself happen outside it. Thread-safe.
 */
public final class BusinessExecutor extends AbstractExecutorService {
    private static final Logger log = LoggerFactory.getLogger(BusinessExecutor.class);

    private final int maxThreads;
    private final int queueCapacity;
    private final long keepAliveNanos;
    private final ThreadFactory threadFactory;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition terminated = lock.newCondition();
    /** Parked workers, most recently idle first. Guarded by lock. */
    private final ArrayDeque<Worker> idle = new ArrayDeque<>();
    /** Calls waiting for a worker; non-empty only while no worker is idle. Guarded by lock. */
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    /** Every worker started and not yet exited. Guarded by lock. */
    private final Set<Worker> workers = new HashSet<>();
    /** Workers running (or handed) a call. Guarded by lock. */
    private int active;
    /** Guarded by lock; read unlocked by parked workers as a hint to wake up. */
    private volatile boolean shutdown;
    /** shutdownNow() was called: its interrupts must reach the calls still running. */
    private volatile boolean stopping;

    public BusinessExecutor(int maxThreads, int queueCapacity, Duration keepAlive, ThreadFactory threadFactory) {
        if (maxThreads < 1 || queueCapacity < 0) {
            throw new IllegalArgumentException("business pool needs threads >= 1 and queues >= 0, got threads="
                    + maxThreads + ", queues=" + queueCapacity);
        }
        this.maxThreads = maxThreads;
        this.queueCapacity = queueCapacity;
        this.keepAliveNanos = keepAlive.toNanos();
        this.threadFactory = threadFactory;
    }

    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        Worker handedTo;
        Worker started = null;
        lock.lock();
        try {
            if (shutdown) {
                throw new RejectedExecutionException("business pool is shut down");
            }
            handedTo = idle.pollFirst();
            if (handedTo != null) {
                // set under the lock: a worker that times out or wakes for shutdown takes the lock and, no
                // longer finding itself in idle, knows a call was handed to it and runs it (see awaitTask)
                handedTo.handed = task;
                active++;
            } else if (workers.size() < maxThreads) {
                started = new Worker(task);
                workers.add(started);
                active++;
            } else if (queue.size() < queueCapacity) {
                queue.addLast(task); // a worker finishing its call takes it before it goes idle (nextTask)
                return;
            } else {
                throw new RejectedExecutionException("business pool full: " + maxThreads + " threads busy and "
                        + queue.size() + " of " + queueCapacity + " queue slots taken");
            }
        } finally {
            lock.unlock();
        }
        if (handedTo != null) {
            LockSupport.unpark(handedTo.thread); // an unpark before its park makes that park return at once
        } else {
            start(started);
        }
    }

    private void start(Worker w) {
        try {
            w.thread = threadFactory.newThread(w);
            w.thread.start();
        } catch (Throwable e) {
            lock.lock();
            try {
                workers.remove(w);
                active--;
                signalIfTerminated();
            } finally {
                lock.unlock();
            }
            throw new RejectedExecutionException("could not start a business thread: " + e, e);
        }
    }

    private final class Worker implements Runnable {
        private final Runnable first;
        /** Set (under lock) by the thread that took this worker off the idle stack. */
        private volatile Runnable handed;
        /**
         * Set before the thread starts, so it is set for every reader that found this worker on the idle
         * stack (the worker pushes itself there); null only briefly for shutdownNow's interrupts.
         */
        volatile Thread thread;

        Worker(Runnable first) {
            this.first = first;
        }

        @Override
        public void run() {
            Runnable task = first;
            while (task != null) {
                if (!stopping) {
                    Thread.interrupted(); // an interrupt a previous call left behind is not this call's
                }
                try {
                    task.run();
                } catch (Throwable e) {
                    log.warn("A business call failed outside its own error handling", e);
                }
                task = nextTask(this);
            }
        }
    }

    /** The finished worker's next call: a queued one, one handed to it after parking, or null to exit. */
    private Runnable nextTask(Worker w) {
        lock.lock();
        try {
            active--;
            Runnable queued = queue.pollFirst();
            if (queued != null) {
                active++;
                return queued;
            }
            if (shutdown) {
                exit(w);
                return null;
            }
            w.handed = null;
            idle.addFirst(w);
        } finally {
            lock.unlock();
        }
        return awaitTask(w);
    }

    private Runnable awaitTask(Worker w) {
        long now = System.nanoTime();
        if (IdleSpin.NANOS > 0) {
            for (long spinEnd = now + IdleSpin.NANOS; w.handed == null && !shutdown && System.nanoTime() < spinEnd; ) {
                Thread.onSpinWait(); // a call handed over meanwhile is taken without parking
            }
        }
        long deadline = now + keepAliveNanos;
        while (true) {
            Runnable task = w.handed;
            if (task != null) {
                return task; // execute() counted it active
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || shutdown) {
                lock.lock();
                try {
                    // Timing out (or shutdown) races with execute(): whoever holds the lock first wins. If
                    // execute() popped this worker, it set handed under the lock, so we see it here and run it;
                    // otherwise we leave idle under the lock and no execute() can pick us any more.
                    if (w.handed != null) {
                        return w.handed;
                    }
                    idle.removeLastOccurrence(w); // the longest idle are at the end
                    exit(w);
                    return null;
                } finally {
                    lock.unlock();
                }
            }
            Thread.interrupted(); // a stale interrupt (from a call's code) must not turn parking into spinning
            LockSupport.parkNanos(this, left); // spurious wake-ups just loop
        }
    }

    /** Under lock: the worker leaves. */
    private void exit(Worker w) {
        workers.remove(w);
        signalIfTerminated();
    }

    private void signalIfTerminated() {
        if (shutdown && workers.isEmpty()) {
            terminated.signalAll();
        }
    }

    /** Workers running a call now. */
    public int activeCount() {
        lock.lock();
        try {
            return active;
        } finally {
            lock.unlock();
        }
    }

    /** Calls waiting in the queue. */
    public int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /** Workers alive (running a call or idle). */
    public int threadCount() {
        lock.lock();
        try {
            return workers.size();
        } finally {
            lock.unlock();
        }
    }

    /** New calls are refused; queued ones still run; idle workers exit. */
    @Override
    public void shutdown() {
        List<Worker> wake;
        lock.lock();
        try {
            shutdown = true;
            wake = new ArrayList<>(idle);
            signalIfTerminated();
        } finally {
            lock.unlock();
        }
        for (Worker w : wake) {
            LockSupport.unpark(w.thread);
        }
    }

    /** {@link #shutdown()}, drops queued calls (returned) and interrupts running ones. */
    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> dropped;
        List<Worker> all;
        stopping = true;
        lock.lock();
        try {
            dropped = new ArrayList<>(queue);
            queue.clear();
            all = new ArrayList<>(workers);
        } finally {
            lock.unlock();
        }
        shutdown();
        for (Worker w : all) {
            Thread t = w.thread;
            if (t != null) {
                t.interrupt();
            }
        }
        return dropped;
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        lock.lock();
        try {
            return shutdown && workers.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (!(shutdown && workers.isEmpty())) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = terminated.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
