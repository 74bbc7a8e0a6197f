package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Mutation checks beside {@link PortContractTest}: each defence against half-sent bodies is shown to be what
 * stops the attack, by running the attack against a provider with the defence at its test setting and against
 * one with it out of reach, on every protocol. The frame timeout closes a half-sent frame's connection (out of
 * reach, the connection stays open); the memory budget holds what half-sent bodies take to half of it (out of
 * reach, they take what they announce).
 */
@Timeout(120)
class DefenceMutationTest {
    private static final int PAYLOAD = 2 * 1024 * 1024;
    private static final long SMALL_BUDGET = 8L * 1024 * 1024;
    private static final long HUGE_BUDGET = 1024L * 1024 * 1024;
    private static final int ATTACKERS = 8;

    static Stream<String> protocols() {
        return ProtocolConfig.NAMES.stream();
    }

    private static RpcRuntime provider(String protocol, Duration frameTimeout, long budget) {
        ServerLimits limits = ServerLimits.builder().frameTimeout(frameTimeout).memoryBudgetBytes(budget).build();
        return TestRuntimes.echoProvider(TestRuntimes.loopback().name(protocol).payloadBytes(PAYLOAD)
                .serialization(PortAttacker.of(protocol).serialization()).limits(limits).build());
    }

    /** Opens {@code count} connections, each sending a header for a body of almost PAYLOAD bytes and half of it. */
    private static List<Socket> halfSentBodies(RpcRuntime provider, PortAttacker attacker, int count)
            throws IOException {
        List<Socket> sockets = new ArrayList<>();
        byte[] half = new byte[PAYLOAD / 2];
        for (int i = 0; i < count; i++) {
            Socket s = new Socket("127.0.0.1", provider.boundPort());
            sockets.add(s);
            OutputStream out = s.getOutputStream();
            out.write(attacker.requestHeader(i + 1, PAYLOAD - 4096));
            out.write(half);
            out.flush();
        }
        return sockets;
    }

    /** Whether the provider closed {@code s} (end of stream), waiting at most {@code millis}. */
    private static boolean closedByPeer(Socket s, int millis) throws IOException {
        s.setSoTimeout(millis);
        InputStream in = s.getInputStream();
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void theFrameTimeoutIsWhatClosesAHalfSentFrame(String protocol) throws Exception {
        PortAttacker attacker = PortAttacker.of(protocol);
        try (RpcRuntime defended = provider(protocol, Duration.ofSeconds(1), HUGE_BUDGET);
                RpcRuntime mutant = provider(protocol, Duration.ofMinutes(10), HUGE_BUDGET)) {
            List<Socket> held = halfSentBodies(defended, attacker, 1);
            List<Socket> kept = halfSentBodies(mutant, attacker, 1);
            try {
                assertTrue(closedByPeer(held.get(0), 10_000), "the 1 s frame timeout did not close the connection");
                assertTrue(!closedByPeer(kept.get(0), 3_000),
                        "with the frame timeout out of reach the connection was closed anyway: something else cut it");
                assertTrue(mutant.inspect().snapshot().server().memoryInUseBytes() > 0, "the mutant holds the half-sent body's share");
            } finally {
                closeAll(held);
                closeAll(kept);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void theMemoryBudgetIsWhatBoundsHalfSentBodies(String protocol) throws Exception {
        PortAttacker attacker = PortAttacker.of(protocol);
        long announced = (long) ATTACKERS * (PAYLOAD - 4096);
        try (RpcRuntime defended = provider(protocol, Duration.ofMinutes(10), SMALL_BUDGET);
                RpcRuntime mutant = provider(protocol, Duration.ofMinutes(10), HUGE_BUDGET)) {
            List<Socket> a = halfSentBodies(defended, attacker, ATTACKERS);
            List<Socket> b = halfSentBodies(mutant, attacker, ATTACKERS);
            try {
                Await.until("the mutant takes every announced body from its budget", Duration.ofSeconds(20),
                        () -> mutant.inspect().snapshot().server().memoryInUseBytes() >= announced);
                assertTrue(defended.inspect().snapshot().server().memoryInUseBytes() <= SMALL_BUDGET / 2, "half-sent bodies hold "
                        + defended.inspect().snapshot().server().memoryInUseBytes() + " bytes of a budget of " + SMALL_BUDGET);
            } finally {
                closeAll(a);
                closeAll(b);
            }
            Await.until("the budgets are given back", Duration.ofSeconds(20),
                    () -> defended.inspect().snapshot().server().memoryInUseBytes() == 0 && mutant.inspect().snapshot().server().memoryInUseBytes() == 0);
            assertEquals(0, defended.inspect().snapshot().server().memoryInUseBytes());
        }
    }
}
