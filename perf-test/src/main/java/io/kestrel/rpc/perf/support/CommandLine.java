package io.kestrel.rpc.perf.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The command-line conventions of every perf-test program (the benchmark, the soak, the JMH suite
 * and the server JVM): {@code --name value} or {@code --name=value}, flags without a value,
 * {@code --help} or {@code -h}. Values are converted by {@link Option}, whose errors name the option.
 */
public final class CommandLine {
    /** The message of the exception {@link #parse} throws for {@code --help} and {@code -h}. */
    public static final String HELP_REQUESTED = "help requested";

    private CommandLine() {
    }

    /**
     * One option as given on the command line.
     *
     * @param name the option, e.g. "--threads"
     * @param value its value, or null for a flag
     */
    public record Option(String name, String value) {
        public int intValue() {
            return converted(Integer::parseInt, "an integer");
        }

        public long longValue() {
            return converted(Long::parseLong, "an integer");
        }

        public double doubleValue() {
            return converted(Double::parseDouble, "a number");
        }

        /** "5s", "500ms", "1m" or a plain number of seconds. */
        public Duration duration() {
            String t = value.trim().toLowerCase(Locale.ROOT);
            try {
                if (t.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
                }
                if (t.endsWith("s")) {
                    return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
                }
                if (t.endsWith("m")) {
                    return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)) * 60);
                }
                return Duration.ofMillis(Math.round(Double.parseDouble(t) * 1000));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a duration like 5s or 500ms, was '" + value + "'");
            }
        }

        public Path path() {
            return Path.of(value);
        }

        private <T> T converted(Function<String, T> parse, String what) {
            try {
                return parse.apply(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be " + what + ", was '" + value + "'");
            }
        }

        /** The exception for an option the program does not know. */
        public IllegalArgumentException unknown() {
            return new IllegalArgumentException("unknown option " + name);
        }
    }

    /**
     * Splits {@code args} into options, in the order given.
     *
     * @param flags options that take no value (a value given with "=" is ignored)
     * @throws IllegalArgumentException {@link #HELP_REQUESTED} for --help or -h, or naming an option
     *     whose value is missing
     */
    public static List<Option> parse(String[] args, Set<String> flags) {
        List<Option> options = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                value = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            if (flags.contains(a)) {
                options.add(new Option(a, null));
                continue;
            }
            if (a.equals("--help") || a.equals("-h")) {
                throw new IllegalArgumentException(HELP_REQUESTED);
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                value = args[++i];
            }
            options.add(new Option(a, value));
        }
        return options;
    }

    /**
     * Parses a program's options; on a bad option (or --help) prints the problem and the usage to
     * stderr and exits with code 2.
     */
    public static <T> T parseOrExit(String[] args, Function<String[], T> parser, String usage) {
        try {
            return parser.apply(args);
        } catch (IllegalArgumentException e) {
            if (!HELP_REQUESTED.equals(e.getMessage())) {
                System.err.println(e.getMessage());
            }
            System.err.println(usage);
            System.exit(2);
            throw e; // not reached
        }
    }
}
