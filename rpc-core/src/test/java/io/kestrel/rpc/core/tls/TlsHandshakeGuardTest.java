package io.kestrel.rpc.core.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.config.TlsConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.CallerService;
import io.kestrel.rpc.core.fixture.CallerServiceImpl;
import io.kestrel.rpc.testing.TestPki;
import java.io.DataInputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Raw sockets against a provider's ports: a client that connects and never completes the TLS
 * handshake (silent, or a ClientHello cut short) is disconnected after the handshake timeout while
 * a good consumer is served; a TLS ClientHello on a plaintext port gets a plaintext notice back.
 */
@Timeout(60)
class TlsHandshakeGuardTest {
    @TempDir
    Path dir;
    private final List<RpcRuntime> runtimes = new ArrayList<>();
    private final TestPki ca = TestPki.ca("Guard CA");

    @AfterEach
    void stopAll() {
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
    }

    private RpcRuntime provider(TlsConfig tls) {
        RpcRuntime r = RpcRuntime.builder().protocol((tls == null ? TestRuntimes.loopback()
                : TestRuntimes.loopback().tls(tls)).build()).build();
        runtimes.add(r);
        r.export(ServiceConfig.builder(CallerService.class, new CallerServiceImpl()).build());
        return r;
    }

    /** Milliseconds until the provider closes the socket (read returns -1). */
    private static long millisUntilClosed(Socket s) throws Exception {
        long start = System.nanoTime();
        s.setSoTimeout(10_000);
        InputStream in = s.getInputStream();
        while (in.read() >= 0) {
            // the provider may send an alert first
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Test
    void clientsThatNeverFinishTheHandshakeAreDisconnectedWhileOthersAreServed() throws Exception {
        TestPki.Files2 files = ca.server("provider").write(dir, "provider");
        RpcRuntime provider = provider(TlsConfig.builder().keyPair(files.cert(), files.key())
                .handshakeTimeout(Duration.ofMillis(600)).build());
        try (Socket silent = new Socket("127.0.0.1", provider.boundPort());
                Socket partial = new Socket("127.0.0.1", provider.boundPort())) {
            // a TLS record header announcing 512 bytes of handshake, then one byte of it
            partial.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01});
            partial.getOutputStream().flush();

            RpcRuntime consumer = RpcRuntime.builder().build();
            runtimes.add(consumer);
            CallerService good = consumer.refer(ReferenceConfig.builder(CallerService.class)
                    .url("127.0.0.1:" + provider.boundPort()).tls(TlsConfig.builder().trustRoots(ca.writeTrust(dir))
                            .build()).build());
            assertEquals("anonymous", good.caller());

            long silentMillis = millisUntilClosed(silent);
            long partialMillis = millisUntilClosed(partial);
            assertTrue(silentMillis < 5000, "silent client closed after " + silentMillis + " ms");
            assertTrue(partialMillis < 5000, "stalled handshake closed after " + partialMillis + " ms");
            assertEquals("anonymous", good.caller());
        }
    }

    @Test
    void aTlsHelloOnAPlaintextPortIsAnsweredWithAPlaintextNotice() throws Exception {
        RpcRuntime provider = provider(null);
        try (Socket s = new Socket("127.0.0.1", provider.boundPort())) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x03});
            s.getOutputStream().flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            assertEquals(0x4B52, in.readUnsignedShort()); // "KR"
            in.readByte(); // version
            in.readByte(); // flags
            in.readByte(); // serialization
            assertEquals(122, in.readUnsignedByte()); // TLS_MISMATCH
            in.readLong(); // request id
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            String text = new String(body, 1, body.length - 1, java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(text.contains("does not use TLS"), text);
            assertEquals(-1, in.read());
        }
    }
}
