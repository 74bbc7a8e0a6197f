package io.kestrel.rpc.serialization.fst;

import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.FSTDecoder;
import org.nustaq.serialization.FSTEncoder;
import org.nustaq.serialization.coders.FSTStreamEncoder;

/**
 * fst's default coders, with {@link BoundedFstDecoder} for reading. Its per-thread input/output
 * caches belong to this factory (fst's default factory keeps them in static fields shared by every
 * configuration in the JVM).
 */
final class BoundedStreamCoderFactory implements FSTConfiguration.StreamCoderFactory {
    private final FSTConfiguration conf;
    private final ThreadLocal<Object> input = new ThreadLocal<>();
    private final ThreadLocal<Object> output = new ThreadLocal<>();

    BoundedStreamCoderFactory(FSTConfiguration conf) {
        this.conf = conf;
    }

    @Override
    public FSTEncoder createStreamEncoder() {
        return new FSTStreamEncoder(conf);
    }

    @Override
    public FSTDecoder createStreamDecoder() {
        return new BoundedFstDecoder(conf);
    }

    @Override
    public ThreadLocal getInput() {
        return input;
    }

    @Override
    public ThreadLocal getOutput() {
        return output;
    }
}
