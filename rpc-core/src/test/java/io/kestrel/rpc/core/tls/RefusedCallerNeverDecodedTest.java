package io.kestrel.rpc.core.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kestrel.rpc.api.PermissionDeniedException;
import io.kestrel.rpc.api.UnauthenticatedException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A caller the service refuses (no credential, or a role the service does not admit) never gets its arguments
 * decoded on the provider: the refusal is decided from the frame's header and the connection's identity, before the
 * business thread would read the body. Counted with an argument whose decoding increments a counter (java
 * serialization calls its {@code readObject}); an admitted caller's call moves the counter, so the count is real.
 */
@Timeout(60)
class RefusedCallerNeverDecodedTest {
    /** A service restricted to the role "admin", taking an argument that counts its own decoding. */
    public interface Vault {
        int store(Counted value);
    }

    /** Counts every time it is read from the wire. */
    public static final class Counted implements Serializable {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger DECODED = new AtomicInteger();
        final int value;

        Counted(int value) {
            this.value = value;
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            DECODED.incrementAndGet();
        }
    }

    private final List<RpcRuntime> runtimes = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
    }

    private Vault consumer(int port, String token) {
        RpcRuntime r = RpcRuntime.builder().build();
        runtimes.add(r);
        ReferenceConfig.Builder<Vault> reference = ReferenceConfig.builder(Vault.class).url("127.0.0.1:" + port)
                .serialization("java").allowPackage(Vault.class.getPackageName()).timeout(Duration.ofSeconds(10));
        if (token != null) {
            reference.token(token);
        }
        return r.refer(reference.build());
    }

    @Test
    void refusedCallersArgumentsAreNeverDecoded() {
        RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().authenticator(new TestTokens())
                .serialization("java").allowPackage(Vault.class.getPackageName()).build()).build();
        runtimes.add(provider);
        provider.export(ServiceConfig.builder(Vault.class, (Vault) value -> value.value).allowRole("admin").build());
        int port = provider.boundPort();
        Counted.DECODED.set(0);

        Vault reader = consumer(port, "alice-token"); // role "reader": authenticated, not admitted
        for (int i = 0; i < 5; i++) {
            int n = i;
            assertThrows(PermissionDeniedException.class, () -> reader.store(new Counted(n)));
        }
        Vault anonymous = consumer(port, null);
        assertThrows(UnauthenticatedException.class, () -> anonymous.store(new Counted(9)));
        assertEquals(0, Counted.DECODED.get(), "arguments of refused callers were decoded on the provider");

        Vault admin = consumer(port, "bob-token");
        assertEquals(7, admin.store(new Counted(7)));
        assertEquals(1, Counted.DECODED.get(), "the admitted caller's argument is decoded exactly once");
    }
}
