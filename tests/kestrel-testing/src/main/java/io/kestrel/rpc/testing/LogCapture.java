package io.kestrel.rpc.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Captures what the tests' real SLF4J backend (slf4j-simple, which writes each line to the current
 * {@code System.err}) logs while open, and still passes it through. Not for tests running in parallel.
 */
public final class LogCapture implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    public LogCapture() {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (captured) {
                    captured.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (captured) {
                    captured.write(b, off, len);
                }
                original.write(b, off, len);
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    /** Everything captured so far (also after {@link #close()}). */
    public String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    /** Every captured line so far. */
    public List<String> lines() {
        return Arrays.asList(text().split("\\R"));
    }

    /** Captured lines logged at WARN by {@code logger}. */
    public List<String> warnings(String logger) {
        return lines().stream().filter(l -> l.contains(" WARN " + logger + " - ")).toList();
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
