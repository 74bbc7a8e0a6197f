package io.kestrel.rpc.core.internal;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.internal.StreamSignature;
import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.ClientResponseObserver;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.transport.StreamCall;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Streaming methods in the invocation layer: the consumer's proxy opens a stream as a call (which goes through the
 * interceptors and the cluster like any other, ends when the stream ends, and is never retried), the provider's
 * method gets its response observer as its last argument, and a service with streaming methods is refused on the
 * dubbo protocol at export and refer.
 */
final class StreamCalls {
    private StreamCalls() {
    }

    /**
     * Opens the stream of a proxy call: returns null (server streaming) or the request observer.
     *
     * @param send sends the call with the given arguments (the stream in place of the observer); its future ends
     *     with the stream
     */
    static Object open(MethodInfo info, Object[] args, Executor delivery,
            Function<Object[], CompletableFuture<Object>> send) {
        StreamSignature sig = info.ref.stream();
        Object given = args[sig.observerIndex()];
        if (!(given instanceof StreamObserver<?>)) {
            throw new IllegalArgumentException(info.ref.displayName() + " needs a StreamObserver for its answers as"
                    + " its last argument; it was null");
        }
        @SuppressWarnings("unchecked")
        StreamObserver<Object> responses = (StreamObserver<Object>) given;
        StreamCall stream = StreamCall.create(responses, delivery, sig.bidirectional());
        if (responses instanceof ClientResponseObserver<?> aware) {
            aware.beforeStart(stream);
        }
        Object[] sent = args.clone();
        sent[sig.observerIndex()] = stream;
        CompletableFuture<Object> ended;
        try {
            ended = send.apply(sent);
        } catch (RuntimeException e) {
            stream.callEnded(null, e);
            throw e;
        }
        ended.whenComplete(stream::callEnded); // also a failure before any connection saw it (no provider)
        return sig.bidirectional() ? stream : null;
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

    /**
     * Refuses a service interface with streaming methods on the dubbo protocol (and any shape
     * {@link StreamSignature#of} refuses on any protocol).
     *
     * @param what "export of ..." or "reference ...", for the message
     */
    static void check(Class<?> serviceInterface, String protocol, String what) {
        for (Method m : RemoteMethods.of(serviceInterface)) {
            if (StreamSignature.of(m) != null && ProtocolConfig.DUBBO.equals(protocol)) {
                throw new IllegalArgumentException(what + ": " + serviceInterface.getName() + "#" + m.getName()
                        + " is a streaming method (a StreamObserver parameter), and the dubbo protocol carries no"
                        + " streams. Use the native protocol (protocol name \"" + ProtocolConfig.KESTREL + "\") for"
                        + " this service, or move the streaming methods to an interface exported there");
            }
        }
    }
}
