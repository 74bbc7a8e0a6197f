package io.kestrel.rpc.perf.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamOptionsTest {
    @Test
    void defaultsQuickAndOverrides() {
        StreamOptions d = StreamOptions.parse();
        assertEquals(StreamSystems.DEFAULTS, d.systems());
        assertEquals(List.of(3, 4, 1_000_000, 10_000, 20_000, 16), List.of(d.rounds(), d.streams(), d.messages(),
                d.trips(), d.unaryCalls(), d.payload()));
        StreamOptions q = StreamOptions.parse("--quick", "--trips", "7", "--systems", "grpc, kestrel-kryo,grpc",
                "--timeout", "5s", "--server-jvm-args", " -Xss1m  -Dx=y ");
        assertEquals(List.of(1, 2, 2_000, 7), List.of(q.rounds(), q.streams(), q.messages(), q.trips()));
        assertEquals(List.of("grpc", "kestrel-kryo"), q.systems());
        assertEquals(Duration.ofSeconds(5), q.timeout());
        assertEquals(List.of("-Xss1m", "-Dx=y"), q.serverJvmArgs());
        assertEquals(1, StreamOptions.warmup(3));
        assertEquals(2_500, StreamOptions.warmup(10_000));
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StreamOptions.parse("--payload", "4"))
                .getMessage().startsWith("--payload must be 8..65536"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StreamOptions.parse("--streams", "0"))
                .getMessage().startsWith("--streams must be"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StreamOptions.parse("--systems", "thrift"))
                .getMessage().contains("unknown streams system 'thrift'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StreamOptions.parse("--timeout", "10ms"))
                .getMessage().startsWith("--timeout must be at least 1s"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> StreamOptions.parse("--rounds"))
                .getMessage().contains("needs a value"));
    }
}
