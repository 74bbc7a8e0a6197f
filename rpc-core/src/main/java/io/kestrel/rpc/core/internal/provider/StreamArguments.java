package io.kestrel.rpc.core.internal.provider;

import io.kestrel.rpc.api.stream.CallStreamObserver;
import java.util.Arrays;

/** Streaming methods on the provider's side: the method gets its response observer as its last argument. */
final class StreamArguments {
    private StreamArguments() {
    }

    /** The arguments a provider's streaming method is invoked with: those sent, then its response observer. */
    static Object[] withObserver(Object[] sent, CallStreamObserver<Object> responses) {
        if (responses == null) {
            throw new IllegalStateException("a streaming method was called without its stream (generic calls and the"
                    + " dubbo protocol carry none); call it through its interface");
        }
        Object[] args = Arrays.copyOf(sent == null ? new Object[0] : sent, (sent == null ? 0 : sent.length) + 1);
        args[args.length - 1] = responses;
        return args;
    }
}
