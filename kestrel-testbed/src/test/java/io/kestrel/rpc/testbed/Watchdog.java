package io.kestrel.rpc.testbed;

import java.util.Arrays;

/**
 * The main class of every JVM of the bed: runs {@code args[0]}'s main with the rest of the arguments and
 * exits the JVM (shutdown hooks run) when stdin closes, i.e. when the test ended or died. Mains that read
 * commands from stdin get them through {@link #commands()}.
 */
public final class Watchdog {
    private static final java.util.concurrent.BlockingQueue<String> COMMANDS =
            new java.util.concurrent.LinkedBlockingQueue<>();

    private Watchdog() {
    }

    public static void main(String[] args) throws Throwable {
        Thread watch = new Thread(() -> {
            try (java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    COMMANDS.add(line);
                }
            } catch (java.io.IOException e) {
                // stdin broke: same as closed
            }
            System.exit(0);
        }, "testbed-watchdog");
        watch.setDaemon(true);
        watch.start();
        Class.forName(args[0]).getMethod("main", String[].class)
                .invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    }

    /** The lines the test sent, in order. */
    static java.util.concurrent.BlockingQueue<String> commands() {
        return COMMANDS;
    }
}
