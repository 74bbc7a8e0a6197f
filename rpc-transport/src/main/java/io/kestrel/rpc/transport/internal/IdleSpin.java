package io.kestrel.rpc.transport.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The business pool's spin before parking: with {@code -D}{@value #PROPERTY}{@code =N} on a machine of more than two
 * processors, a worker that just went idle first spins up to N microseconds for a call before it parks (a call handed
 * to it then costs no wake-up). Off by default, and always off on two processors or fewer, where a spinning worker
 * takes the CPU the event loop or the call's own thread needs. Used by {@link BusinessExecutor}.
 */
final class IdleSpin {
    private static final Logger log = LoggerFactory.getLogger(IdleSpin.class);

    /** System property: microseconds an idle worker spins before parking (0, the default: none); 0 on <= 2 CPUs. */
    static final String PROPERTY = "kestrel.rpc.provider.spinMicros";
    /** Most a worker may spin: longer burns a core for nothing. */
    static final long MAX_MICROS = 100;
    /** This JVM's spin, in nanoseconds (0: workers park at once). */
    static final long NANOS = micros(System.getProperty(PROPERTY), Runtime.getRuntime().availableProcessors()) * 1000;

    private IdleSpin() {
    }

    /**
     * Reads {@value #PROPERTY}: microseconds from 0 to {@value #MAX_MICROS}, and 0 whatever it says on a
     * machine of {@code processors} <= 2; a value that is no such number is logged and read as 0.
     */
    static long micros(String value, int processors) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        long micros = -1;
        try {
            micros = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            // logged below
        }
        if (micros < 0 || micros > MAX_MICROS) {
            log.error("-D{} must be a number of microseconds from 0 to {}, was '{}'; business threads do not spin",
                    PROPERTY, MAX_MICROS, value.length() > 40 ? value.substring(0, 40) + "..." : value);
            return 0;
        }
        if (micros > 0 && processors <= 2) {
            log.info("-D{}={} ignored: this machine has {} processors, and a spinning business thread would take the"
                    + " CPU the I/O threads need; business threads park at once", PROPERTY, micros, processors);
            return 0;
        }
        return micros;
    }
}
