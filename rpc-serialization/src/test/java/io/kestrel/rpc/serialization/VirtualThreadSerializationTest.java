package io.kestrel.rpc.serialization;

import static io.kestrel.rpc.serialization.SerializationTestSupport.create;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.serialization.fixture.BidRequest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every serializer from many threads at once, virtual ones on JDK 21+ (where the engines a platform
 * thread keeps are lent from a pool instead): no two calls share an engine or a read buffer, so every
 * value comes back whole, from streams, heap buffers and direct buffers alike.
 */
class VirtualThreadSerializationTest {
    static Stream<Serialization> all() {
        return SerializationTestSupport.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void manyThreadsAtOnceEachGetTheirOwnValueBack(Serialization s) throws Exception {
        Serializer serializer = create(s);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 32; t++) {
            int thread = t;
            threads.add(start(() -> {
                for (int i = 0; i < 50; i++) {
                    BidRequest value = BidRequest.sample();
                    String text = "t" + thread + "-" + i + "-" + "x".repeat((thread * 131 + i * 17) % 3000);
                    try {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        serializer.serialize(text, out);
                        byte[] bytes = out.toByteArray();
                        Object fromStream = serializer.deserialize(new ByteArrayInputStream(bytes), String.class,
                                DecodeBudget.of(serializer.decodeLimits()));
                        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
                        Object fromDirect = serializer.deserialize(direct, String.class, DecodeBudget.of(serializer.decodeLimits()));
                        ByteArrayOutputStream bid = new ByteArrayOutputStream();
                        serializer.serialize(value, bid);
                        Object bidBack = serializer.deserialize(ByteBuffer.wrap(bid.toByteArray()), BidRequest.class,
                                DecodeBudget.of(serializer.decodeLimits()));
                        if (!text.equals(fromStream) || !text.equals(fromDirect) || !value.equals(bidBack)) {
                            problems.add(s.name() + " thread " + thread + " call " + i + " got another value back");
                        }
                    } catch (RuntimeException e) {
                        problems.add(s.name() + " thread " + thread + " call " + i + ": " + e);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertEquals(List.of(), List.copyOf(problems));
    }

    /** A virtual thread where the JDK has them, else a platform one. */
    private static Thread start(Runnable task) throws Exception {
        try {
            Method startVirtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
            return (Thread) startVirtual.invoke(null, task);
        } catch (NoSuchMethodException e) {
            Thread t = new Thread(task);
            t.start();
            return t;
        }
    }
}
