package io.kestrel.rpc.testbed;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The main class of every JVM of the bed: runs {@code args[0]}'s main with the rest of the arguments and
 * exits the JVM (shutdown hooks run) when stdin closes, i.e. when the test ended or died. Mains that read
 * commands from stdin get them through {@link #commands()}.
 */
public final class Watchdog {
    private static final BlockingQueue<String> COMMANDS = new LinkedBlockingQueue<>();

    private Watchdog() {
    }

    public static void main(String[] args) throws Throwable {
        Thread watch = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    COMMANDS.add(line);
                }
            } catch (IOException e) {
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
    static BlockingQueue<String> commands() {
        return COMMANDS;
    }
}
