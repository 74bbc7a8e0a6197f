package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link WriteCoalescer} hands the pipeline: which buffers, how large, holding which bytes. */
class WriteCoalescerTest {
    private final EmbeddedChannel ch = new EmbeddedChannel();
    private final WriteCoalescer coalescer = new WriteCoalescer(ch);

    private static ByteBuf frame(int bytes, int fill) {
        ByteBuf b = Unpooled.buffer(bytes);
        for (int i = 0; i < bytes; i++) {
            b.writeByte(fill + i);
        }
        return b;
    }

    private List<ByteBuf> written() {
        List<ByteBuf> out = new ArrayList<>();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            out.add(b);
        }
        return out;
    }

    @Test
    void aLoneSmallFrameIsWrittenAsItIs() {
        ByteBuf lone = frame(20, 0);
        coalescer.write(lone);
        coalescer.writeGathered();
        ch.flush();
        List<ByteBuf> out = written();
        assertEquals(1, out.size());
        assertSame(lone, out.get(0), "not copied");
        lone.release();
    }

    @Test
    void smallFramesAreGatheredInBuffersThatGrowFromOneKilobyte() {
        ByteBuf expected = Unpooled.buffer();
        List<ByteBuf> frames = new ArrayList<>();
        for (int i = 0; i < 200; i++) { // 6,400 bytes: 1 KB + 2 KB + 4 KB buffers
            ByteBuf f = frame(32, i);
            expected.writeBytes(f, f.readerIndex(), f.readableBytes());
            frames.add(f);
            coalescer.write(f);
        }
        coalescer.writeGathered();
        ch.flush();
        List<ByteBuf> out = written();
        assertEquals(List.of(1024, 2048, 4096), out.stream().map(ByteBuf::capacity).toList());
        ByteBuf all = Unpooled.wrappedBuffer(out.toArray(new ByteBuf[0]));
        assertEquals(expected, all, "the same bytes in the same order");
        assertTrue(frames.stream().allMatch(f -> f.refCnt() == 0), "every frame copied is released");
        all.release();
        expected.release();
    }

    @Test
    void aLargeFrameGoesAsItIsAfterWhatWasGathered() {
        ByteBuf a = frame(10, 1);
        ByteBuf b = frame(10, 2);
        ByteBuf large = frame(WriteCoalescer.SMALL_FRAME_BYTES + 1, 3);
        coalescer.write(a);
        coalescer.write(b);
        coalescer.write(large);
        coalescer.writeGathered(); // nothing left: writes nothing
        ch.flush();
        List<ByteBuf> out = written();
        assertEquals(2, out.size());
        assertEquals(20, out.get(0).readableBytes(), "the two small frames, gathered");
        assertSame(large, out.get(1));
        out.forEach(ByteBuf::release);
    }
}
