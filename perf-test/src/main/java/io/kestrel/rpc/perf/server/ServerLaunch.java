package io.kestrel.rpc.perf.server;

import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.support.CommandLine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a server JVM is told to run: written as arguments by {@link ServerProcess}, read back by
 * {@link PerfServerMain}, so both ends of the command line live in one place.
 *
 * <p>Arguments: {@code --system NAME [--raw-serialization NAME] [--rpc-server-threads N]
 * [--call-timeout-ms N] [--max-seconds N] [--limits SPEC]}; what is not given takes
 * {@link SystemSettings#DEFAULTS}, a watchdog limit of 1800 s and the framework's default limits.
 *
 * @param system a system name of {@code BenchSystems}, or {@code soak-<serialization>}
 * @param settings what both halves of the system agree on
 * @param maxSeconds the server JVM's watchdog: it exits after this long even if the runner vanished
 * @param limits the provider's {@code ServerLimits} as a {@link LimitsSpec} ("": the defaults); the server
 *     JVM's settings carry it as {@link SystemSettings#serverLimits()}
 */
public record ServerLaunch(String system, SystemSettings settings, long maxSeconds, String limits) {
    private static final long DEFAULT_MAX_SECONDS = 1800;

    /** {@code limits} is the one source of the provider's limits: the settings carry the same. */
    public ServerLaunch {
        settings = settings.withServerLimits(limits);
    }

    /** A launch with the limits of {@code settings}. */
    public ServerLaunch(String system, SystemSettings settings, long maxSeconds) {
        this(system, settings, maxSeconds, settings.serverLimits());
    }

    /** The arguments of {@link PerfServerMain}. */
    List<String> toArgs() {
        List<String> args = new ArrayList<>(List.of("--system", system,
                "--raw-serialization", settings.rawSerialization(),
                "--rpc-server-threads", Integer.toString(settings.rpcServerThreads()),
                "--call-timeout-ms", Long.toString(settings.callTimeout().toMillis()),
                "--max-seconds", Long.toString(maxSeconds)));
        if (!limits.isEmpty()) {
            args.add("--limits");
            args.add(limits);
        }
        return args;
    }

    /** Reads what {@link #toArgs()} wrote. */
    static ServerLaunch parse(String... args) {
        String system = null;
        SystemSettings d = SystemSettings.DEFAULTS;
        String raw = d.rawSerialization();
        int rpcThreads = d.rpcServerThreads();
        long callTimeoutMs = d.callTimeout().toMillis();
        long maxSeconds = DEFAULT_MAX_SECONDS;
        String limits = "";
        for (CommandLine.Option o : CommandLine.parse(args, Set.of())) {
            switch (o.name()) {
                case "--system" -> system = o.value();
                case "--raw-serialization" -> raw = o.value();
                case "--rpc-server-threads" -> rpcThreads = o.intValue();
                case "--call-timeout-ms" -> callTimeoutMs = o.longValue();
                case "--max-seconds" -> maxSeconds = o.longValue();
                case "--limits" -> limits = o.value();
                default -> throw new IllegalArgumentException("unknown server option " + o.name());
            }
        }
        if (system == null) {
            throw new IllegalArgumentException("--system is required");
        }
        return new ServerLaunch(system, new SystemSettings(raw, rpcThreads, Duration.ofMillis(callTimeoutMs), limits),
                maxSeconds, limits);
    }
}
