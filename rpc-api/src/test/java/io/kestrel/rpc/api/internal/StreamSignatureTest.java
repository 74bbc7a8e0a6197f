package io.kestrel.rpc.api.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.stream.StreamObserver;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which signatures are streaming methods, their shape, and the clear refusal of other uses of StreamObserver. */
class StreamSignatureTest {
    interface Shapes {
        String unary(String s);

        void feed(String symbol, Integer depth, StreamObserver<Long> out);

        StreamObserver<String> chat(StreamObserver<List<String>> out);

        void observerFirst(StreamObserver<String> out, String s);

        String returnsValue(StreamObserver<String> out);

        StreamObserver<String> noObserverParameter();

        void twoObservers(StreamObserver<String> a, StreamObserver<String> b);
    }

    private static Method m(String name) {
        for (Method m : Shapes.class.getMethods()) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void unaryMethodsAreNotStreams() {
        assertNull(StreamSignature.of(m("unary")));
    }

    @Test
    void serverStreamingSendsTheOtherParametersAndReadsTheObserversType() {
        StreamSignature s = StreamSignature.of(m("feed"));
        assertFalse(s.bidirectional());
        assertArrayEquals(new Class<?>[] {String.class, Integer.class}, s.wireParameterTypes());
        assertEquals(2, s.observerIndex());
        assertEquals(Long.class, s.responseType());
        assertNull(s.requestType());
    }

    @Test
    void aMethodReturningAnObserverTakesARequestStream() {
        StreamSignature s = StreamSignature.of(m("chat"));
        assertTrue(s.bidirectional());
        assertEquals(0, s.wireParameterTypes().length);
        assertEquals(List.class, s.responseType());
        assertEquals(String.class, s.requestType());
    }

    @Test
    void otherUsesOfStreamObserverAreRefusedNamingTheMethodAndTheRule() {
        for (String name : List.of("observerFirst", "returnsValue", "noObserverParameter", "twoObservers")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamSignature.of(m(name)));
            assertTrue(e.getMessage().contains("Shapes#" + name), e.getMessage());
            assertTrue(e.getMessage().contains("A streaming method takes a StreamObserver<Resp> as its last parameter"),
                    e.getMessage());
        }
    }
}
