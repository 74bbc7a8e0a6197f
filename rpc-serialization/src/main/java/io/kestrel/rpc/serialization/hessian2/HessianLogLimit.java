package io.kestrel.rpc.serialization.hessian2;

import io.kestrel.rpc.api.internal.WarnWindows;
import java.util.concurrent.TimeUnit;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Hessian logs (java.util.logging, warning) every class name a stream names that it cannot load, with the
 * name: a caller choosing names would echo them into the provider's log without bound. This filter lets
 * through at most one such line per {@link #INTERVAL_SECONDS} s, cut at {@link #MAX_MESSAGE_CHARS} characters and
 * ending with how many were not logged. Installed once, on the loggers of hessian's classes that log names.
 */
final class HessianLogLimit implements Filter {
    static final long INTERVAL_SECONDS = 10;
    static final int MAX_MESSAGE_CHARS = 300;
    /** The hessian loggers that log names read from a stream; held here, so that JUL keeps their filter. */
    static final Logger[] LOGGERS = {Logger.getLogger("com.caucho.hessian.io.SerializerFactory"),
            Logger.getLogger("com.caucho.hessian.io.Hessian2Input"),
            Logger.getLogger("com.caucho.hessian.io.UnsafeDeserializer")};

    private final WarnWindows windows = new WarnWindows(TimeUnit.SECONDS.toNanos(INTERVAL_SECONDS), 16);

    static {
        HessianLogLimit filter = new HessianLogLimit();
        for (Logger logger : LOGGERS) {
            logger.setFilter(filter);
        }
    }

    private HessianLogLimit() {
    }

    /** Installs the filter (once, when this class initialises). */
    static void install() {
        // the static initializer did it
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record.getLevel().intValue() < Level.INFO.intValue()) {
            return true; // fine and below: off unless someone debugs hessian on purpose
        }
        String note = windows.admit(record.getLoggerName(), System.nanoTime());
        if (note == null) {
            return false;
        }
        String message = String.valueOf(record.getMessage());
        if (message.length() > MAX_MESSAGE_CHARS) {
            message = message.substring(0, MAX_MESSAGE_CHARS) + "... (" + message.length() + " chars, cut)";
        }
        record.setMessage(message + note + " [at most one line per " + INTERVAL_SECONDS + " s]");
        return true;
    }
}
