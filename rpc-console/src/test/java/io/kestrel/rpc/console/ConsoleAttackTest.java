package io.kestrel.rpc.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.testing.Await;
import io.kestrel.rpc.testing.NettyLeakCheck;
import io.kestrel.rpc.testing.RawPeers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shared attack suite's attacks that apply to HTTP, against the web console's port (issue 34): a connection
 * flood, a client that pipelines requests and never reads, an oversized request, a half-sent body and a request
 * trickled a byte at a time. Throughout and after each, a well-behaved client calls the service on the native
 * port and GETs a console page on a fresh connection; none of its calls may fail, and the console must close
 * (or refuse) the attacker's connections by its limits ({@link ConsoleConfig#maxConnectionsPerHost()},
 * {@link ConsoleConfig#requestTimeout()}, {@link ConsoleConfig#maxRequestBytes()}) rather than keep them.
 */
@Timeout(120)
@ExtendWith(NettyLeakCheck.class)
class ConsoleAttackTest {
    static final int PER_HOST = 8;
    static final int SERVICES = 300;
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(1);
    /** Well beyond the request timeout, well short of the 120 s idle timeout. */
    static final Duration CLOSED_WITHIN = Duration.ofSeconds(15);
    private static RpcRuntime provider;
    private static RpcRuntime consumer;
    private static Greeter greeter;
    private static int console;

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(ProtocolConfig.builder().host("127.0.0.1").port(0).build())
                .addOn(KestrelConsole.of(ConsoleConfig.builder().enabled(true).port(0).maxConnections(32)
                        .maxConnectionsPerHost(PER_HOST).requestTimeout(REQUEST_TIMEOUT).build())).build();
        provider.export(ServiceConfig.builder(Greeter.class, new GreeterImpl()).build());
        for (int v = 0; v < SERVICES; v++) { // makes /api/services large (tens of KB)
            provider.export(ServiceConfig.builder(Greeter.class, new GreeterImpl()).version("1." + v).build());
        }
        console = provider.addOn(KestrelConsole.class).orElseThrow().port();
        consumer = RpcRuntime.builder().build();
        greeter = consumer.refer(ReferenceConfig.builder(Greeter.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(10)).build());
    }

    @AfterAll
    static void stop() {
        if (consumer != null) {
            consumer.close();
        }
        if (provider != null) {
            provider.close();
        }
    }

    @Test
    void aConnectionFloodFromOneHostIsCappedAtItsShare() throws Exception {
        underAttack("connection flood", () -> {
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 4 * PER_HOST; i++) {
                    flood.add(RawPeers.from("127.0.0.2", console));
                }
                int refused = 0;
                for (Socket s : flood) {
                    if (RawPeers.closedWithin(s, Duration.ofMillis(200))) {
                        refused++;
                    }
                }
                assertTrue(refused >= 3 * PER_HOST, "connections beyond " + PER_HOST + " per host are closed at"
                        + " once: " + refused + " of " + flood.size());
            } finally {
                for (Socket s : flood) {
                    s.close();
                }
            }
            // the flood's share is given back: the same host gets its connections again
            Await.until("127.0.0.2 may open " + PER_HOST + " console connections again", Duration.ofSeconds(20),
                    () -> admitted("127.0.0.2") == PER_HOST);
        });
    }

    /** How many of {@value #PER_HOST} connections from {@code host} the console keeps open (closes them after). */
    private static int admitted(String host) {
        List<Socket> sockets = new ArrayList<>();
        try {
            int open = 0;
            for (int i = 0; i < PER_HOST; i++) {
                sockets.add(RawPeers.from(host, console));
            }
            for (Socket s : sockets) {
                open += RawPeers.closedWithin(s, Duration.ofMillis(200)) ? 0 : 1;
            }
            return open;
        } catch (IOException e) {
            return -1;
        } finally {
            for (Socket s : sockets) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
        }
    }

    @Test
    void aClientThatPipelinesRequestsAndNeverReadsIsClosed() throws Exception {
        byte[] get = ("GET /api/overview HTTP/1.1\r\nHost: 127.0.0.1:" + console + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        underAttack("pipelined requests never read", () -> {
            try (Socket s = RawPeers.attacker(console)) {
                AtomicInteger sent = new AtomicInteger();
                Thread writer = RawPeers.untilClosed("never-reads", () -> {
                    OutputStream out = s.getOutputStream();
                    while (true) {
                        out.write(get);
                        sent.incrementAndGet();
                    }
                });
                writer.join(CLOSED_WITHIN.toMillis());
                assertTrue(!writer.isAlive(), "the console closed the connection that does not read (sent "
                        + sent.get() + " requests)");
            }
        });
    }

    @Test
    void aClientThatDoesNotReadLargeAnswersIsClosedAtTheRequestTimeout() throws Exception {
        // fewer requests than the HTTP codec's pipelining limit, answers larger than the sockets' buffers hold
        byte[] get = ("GET /api/services HTTP/1.1\r\nHost: 127.0.0.1:" + console + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        int requests = 100;
        underAttack("large answers never read", () -> {
            try (Socket s = RawPeers.attacker(console)) {
                OutputStream out = s.getOutputStream();
                for (int i = 0; i < requests; i++) {
                    out.write(get);
                }
                out.flush();
                Thread.sleep(REQUEST_TIMEOUT.toMillis() * 5); // kept: the attack is not reading for this long
                s.setSoTimeout(5_000);
                java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
                byte[] chunk = new byte[64 * 1024];
                try { // what was sent before the close, then its end; a connection left open times out (a failure)
                    for (int n; (n = s.getInputStream().read(chunk)) > 0; ) {
                        all.write(chunk, 0, n);
                    }
                } catch (java.net.SocketException reset) {
                    // closed: what arrived before is counted
                }
                int answers = all.toString(StandardCharsets.ISO_8859_1).split("HTTP/1.1 200", -1).length - 1;
                assertTrue(answers < requests, "the console stopped answering and closed the connection: "
                        + answers + " of " + requests + " answers sent");
            }
        });
    }

    @Test
    void anOversizedRequestIsRefusedWith413() throws Exception {
        underAttack("oversized request", () -> {
            try (Socket s = RawPeers.attacker(console)) {
                s.getOutputStream().write(("POST /api/invoke HTTP/1.1\r\nHost: 127.0.0.1:" + console + "\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 100000000\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                s.setSoTimeout(10_000);
                byte[] head = s.getInputStream().readNBytes(12);
                assertEquals("HTTP/1.1 413", new String(head, StandardCharsets.US_ASCII));
                assertTrue(RawPeers.closedWithin(s, CLOSED_WITHIN), "closed after the 413");
            }
        });
    }

    @Test
    void aHalfSentBodyIsCutAtTheRequestTimeout() throws Exception {
        underAttack("half-sent body", () -> {
            try (Socket s = RawPeers.attacker(console)) {
                s.getOutputStream().write(("POST /api/invoke HTTP/1.1\r\nHost: 127.0.0.1:" + console + "\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{\"service\":\"")
                        .getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().write(new byte[20_000]);
                long start = System.nanoTime();
                assertTrue(RawPeers.closedWithin(s, CLOSED_WITHIN), "the half-sent request's connection is cut");
                assertTrue(System.nanoTime() - start >= REQUEST_TIMEOUT.toNanos() / 2, "not before its timeout");
            }
        });
    }

    @Test
    void aRequestTrickledAByteAtATimeIsCutAtTheRequestTimeout() throws Exception {
        byte[] get = ("GET /api/overview HTTP/1.1\r\nHost: 127.0.0.1:" + console + "\r\nX-Pad: "
                + "p".repeat(1000) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        underAttack("trickle", () -> {
            try (Socket s = RawPeers.attacker(console)) {
                long start = System.nanoTime();
                Thread trickler = RawPeers.untilClosed("trickle", () -> {
                    OutputStream out = s.getOutputStream();
                    for (byte b : get) {
                        out.write(b);
                        out.flush();
                        LockSupport.parkNanos(50_000_000); // 20 bytes a second: the whole request would take 50 s
                    }
                });
                trickler.join(CLOSED_WITHIN.toMillis());
                assertTrue(!trickler.isAlive(), "the console cut the trickled request");
                assertTrue(System.nanoTime() - start < Duration.ofSeconds(40).toNanos(), "before it was complete");
            }
        });
    }

    interface Attack {
        void run() throws Exception;
    }

    /** Runs {@code attack} while the good client calls; then checks it was served throughout and after. */
    private static void underAttack(String name, Attack attack) throws Exception {
        assertEquals("Hello, warm", greeter.greet("warm"));
        GoodClient good = new GoodClient();
        try {
            attack.run();
            int rpc = good.rpc.get();
            int pages = good.pages.get();
            Await.until("the good client keeps being served after the " + name, Duration.ofSeconds(30),
                    () -> good.rpc.get() >= rpc + 10 && good.pages.get() >= pages + 3);
        } finally {
            good.stop();
        }
        System.out.println("ConsoleAttackTest, " + name + ": good client " + good.rpc.get() + " calls on the native"
                + " port, " + good.pages.get() + " console pages, " + good.failed.get() + " failed");
        assertEquals(0, good.failed.get(), name + ": the good client failed: " + good.firstFailure.get());
    }

    /** Calls the native port every 20 ms and GETs a console page every 100 ms (a fresh connection each). */
    static final class GoodClient {
        final AtomicInteger rpc = new AtomicInteger();
        final AtomicInteger pages = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicReference<String> firstFailure = new AtomicReference<>();
        private volatile boolean running = true;
        private final Thread thread = new Thread(this::run, "good-client");

        GoodClient() {
            thread.start();
        }

        private void run() {
            for (int i = 0; running; i++) {
                try {
                    String answer = greeter.greet("good-" + i);
                    if (answer.equals("Hello, good-" + i)) {
                        rpc.incrementAndGet();
                    } else {
                        fail("wrong answer " + answer);
                    }
                    if (i % 5 == 0) {
                        ConsoleHttp.Answer page = ConsoleHttp.get(console, "/api/overview");
                        if (page.status() == 200) {
                            pages.incrementAndGet();
                        } else {
                            fail("console answered " + page.status() + ": " + page.body());
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    fail(e.toString());
                }
                LockSupport.parkNanos(20_000_000);
            }
        }

        private void fail(String why) {
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, why);
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join(20_000);
        }
    }
}
