package io.kestrel.rpc.testing;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Waiting for a child process's output: the lines it printed, queued by a reader thread as they come. */
public final class OutputLines {
    private OutputLines() {
    }

    /**
     * Takes lines from {@code lines} until one matches {@code regex} (the others are skipped) and returns its
     * match; after {@code timeoutMs} without one, fails naming {@code who}, the pattern and
     * {@code context} (what is known of the process, e.g. whether it is alive and its output).
     */
    public static Matcher await(BlockingQueue<String> lines, String regex, long timeoutMs, String who,
            Supplier<String> context) throws InterruptedException {
        Pattern pattern = Pattern.compile(regex);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError(who + " printed no line matching '" + regex + "' within " + timeoutMs
                        + " ms " + context.get());
            }
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m;
            }
        }
    }
}
