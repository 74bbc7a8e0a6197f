package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kestrel.rpc.transport.TransportCounters;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class ByteCountingHandlerTest {
    @Test
    void countsConnectionsAndTheBytesEachWay() {
        TransportCounters counters = new TransportCounters();
        ByteCountingHandler shared = new ByteCountingHandler(counters);
        EmbeddedChannel a = new EmbeddedChannel(shared);
        EmbeddedChannel b = new EmbeddedChannel(shared);
        a.writeInbound(Unpooled.wrappedBuffer(new byte[7]));
        b.writeInbound(Unpooled.wrappedBuffer(new byte[3]));
        a.writeOutbound(Unpooled.wrappedBuffer(new byte[18]), Unpooled.wrappedBuffer(new byte[4]));
        assertEquals(2, counters.connectionsOpened());
        assertEquals(10, counters.bytesRead());
        assertEquals(22, counters.bytesWritten());
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }
}
