package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.testing.Await;
import io.kestrel.rpc.transport.Status;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The "SerialDOS" argument, nested {@code java.util.HashSet}s of JDK classes only, every class
 * allowed: unbounded, reading it costs time that doubles with each level (depth 28 took 10-17 s,
 * depth 45 for ever). Sent to a method taking {@code Object} over a raw socket, it must be refused
 * by the decode budget at every depth that hurts, for every serialization a provider accepts by
 * default, while a well-behaved client keeps being served. An answer at depth 45 or 100 at all
 * proves the work was bounded: unbounded, it would never come.
 *
 * <p>java and fastjson2 cannot bound the work (their readers hash inside the JDK's or the library's
 * own code, with no hook between); they say so ({@code boundsDecodeWork()} is false), a service
 * accepts them only when it lists them, and exporting one that does logs a warning.
 */
class SerialDosTest {
    static final String ECHO_OBJECT = EchoService.class.getName() + "#echoObject(java.lang.Object)";
    static RpcRuntime provider;
    static RpcRuntime consumer;
    static EchoService good;

    @BeforeAll
    static void start() {
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback().threads(8).build());
        consumer = RpcRuntime.builder().build();
        good = consumer.refer(ReferenceConfig.builder(EchoService.class).url("127.0.0.1:" + provider.boundPort())
                .serialization("kryo").timeout(Duration.ofSeconds(5)).build());
    }

    @AfterAll
    static void stop() {
        consumer.close();
        provider.close();
    }

    /** The classic shape: each level a set holding two sets of the next level, shared by two parents. */
    static Set<Object> serialDos(int depth) {
        Set<Object> root = new HashSet<>();
        Set<Object> s1 = root;
        Set<Object> s2 = new HashSet<>();
        for (int i = 0; i < depth; i++) {
            Set<Object> t1 = new HashSet<>();
            Set<Object> t2 = new HashSet<>();
            t1.add("foo");
            s1.add(t1);
            s1.add(t2);
            s2.add(t1);
            s2.add(t2);
            s1 = t1;
            s2 = t2;
        }
        return root;
    }

    @org.junit.jupiter.api.Test
    void theSerializationsThatCannotBoundDecodeWorkSaySo() {
        assertEquals(List.of("fastjson2", "java"), Serializations.installed().names().keySet().stream()
                .filter(name -> !Serializations.installed().byName(name).boundsDecodeWork()).sorted().toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"fory", "kryo", "fst", "hessian2"})
    void theSerialDosShapeIsRefusedAtEveryDepthThatHurtsWhileOthersAreServed(String serialization) throws Exception {
        assertTrue(Serializations.installed().byName(serialization).boundsDecodeWork(),
                serialization + " bounds its decode work");
        Serializer serializer = TestRuntimes.serializer(serialization, ClassAllowlist.withDefaults());
        byte id = serializer.id();
        HostileLoadTest.GoodClient client = new HostileLoadTest.GoodClient(good);
        try (RawClient raw = new RawClient(provider.boundPort())) {
            boolean defined = false;
            long requestId = 0;
            for (int depth : List.of(20, 28, 45, 100)) {
                byte[] args = bytes(serializer, serialDos(depth));
                raw.writeRequest(++requestId, id, 0, defined ? null : ECHO_OBJECT, args);
                defined = true;
                RawClient.Response r = raw.read(); // the socket's 5 s timeout bounds the wait
                assertEquals(Status.BAD_REQUEST.code(), r.status(), serialization + " at depth " + depth);
                assertTrue(r.message().contains("decoding refused") && r.message().contains("limit"),
                        serialization + " at depth " + depth + ": " + r.message());
            }
            // pipelined, as the attack that pinned every business thread: each is refused in turn
            byte[] deep = bytes(serializer, serialDos(45));
            for (int i = 0; i < 40; i++) {
                raw.writeRequest(++requestId, id, 0, null, deep);
            }
            for (int i = 0; i < 40; i++) {
                int status = raw.read().status();
                assertTrue(status == Status.BAD_REQUEST.code() || status == Status.SERVER_BUSY.code(),
                        "refused, as undecodable or as beyond the connection's share: " + status);
            }
        } finally {
            client.stop();
        }
        assertEquals(0, client.failed.get(), "the good client's calls failed: " + client.firstFailure.get());
        assertTrue(client.ok.get() > 0, "the good client was served during the attack");
        Await.until("every call answered", () -> provider.inspect().snapshot().server().inFlightCalls() == 0);
    }

    static byte[] bytes(Serializer serializer, Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        serializer.serialize(value, out);
        return out.toByteArray();
    }
}
