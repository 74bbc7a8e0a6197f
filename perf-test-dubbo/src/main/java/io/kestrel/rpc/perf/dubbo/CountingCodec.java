package io.kestrel.rpc.perf.dubbo;

import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.dubbo.remoting.Channel;
import org.apache.dubbo.remoting.Codec2;
import org.apache.dubbo.remoting.buffer.ChannelBuffer;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.apache.dubbo.rpc.protocol.dubbo.DubboCountCodec;

/**
 * Dubbo's own codec of the dubbo protocol, counting the bytes of every frame it writes and reads (header and
 * body, what perf-test counts on the wire for the other systems). Selected with {@code codec=countingdubbo}
 * (listed in {@code META-INF/dubbo/org.apache.dubbo.remoting.Codec2}).
 */
public final class CountingCodec implements Codec2 {
    static final LongAdder WRITTEN = new LongAdder();
    static final LongAdder READ = new LongAdder();

    private final DubboCountCodec delegate;

    public CountingCodec(FrameworkModel framework) {
        this.delegate = new DubboCountCodec(framework);
    }

    @Override
    public void encode(Channel channel, ChannelBuffer buffer, Object message) throws IOException {
        int before = buffer.writerIndex();
        delegate.encode(channel, buffer, message);
        WRITTEN.add(buffer.writerIndex() - before);
    }

    @Override
    public Object decode(Channel channel, ChannelBuffer buffer) throws IOException {
        int before = buffer.readerIndex();
        Object result = delegate.decode(channel, buffer);
        if (result != DecodeResult.NEED_MORE_INPUT) {
            READ.add(buffer.readerIndex() - before);
        }
        return result;
    }
}
