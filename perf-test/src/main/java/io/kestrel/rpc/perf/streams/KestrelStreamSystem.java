package io.kestrel.rpc.perf.streams;

import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.ClientResponseObserver;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.Callbacks;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.DirectRpc;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.SerializationVariant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The framework's streams ({@code io.kestrel.rpc.api.stream} only) in direct mode with one serialization and the
 * DemoOptimizer registrations ({@link DirectRpc}): one reference, so every stream and the unary probe share one
 * multiplexed connection; the service with the default dispatch (a feed sends from a business thread, the consumer's
 * observers run on the callback executor). Wire bytes from {@code RpcRuntime.inspect().snapshot().wire()}.
 */
final class KestrelStreamSystem implements StreamSystem {
    static final String PREFIX = "kestrel-";

    /** The suffix of a system without hand-offs: {@code callbacks=direct}, the echo on the provider's I/O thread. */
    static final String DIRECT = "-direct";

    private final String variantName;
    private final SerializationVariant variant;
    private final boolean direct;

    /** @param variant a serialization variant, with {@value #DIRECT} for the system without hand-offs */
    KestrelStreamSystem(String variant) {
        this.direct = variant.endsWith(DIRECT);
        this.variantName = direct ? variant.substring(0, variant.length() - DIRECT.length()) : variant;
        this.variant = SerializationVariant.of(variantName);
    }

    @Override
    public String name() {
        return PREFIX + variantName + (direct ? DIRECT : "");
    }

    @Override
    public String description() {
        return "Kestrel RPC streams, serialization " + variantName + " with DemoOptimizer, " + (direct
                ? "callbacks=direct on the consumer and the echo @NonBlocking (the feed on the business pool)"
                : "default dispatch") + ", one reference (one connection); bytes from"
                + " RpcRuntime.inspect().snapshot().wire()";
    }

    @Override
    public String rawLoop() {
        return RawStreamSystem.PREFIX + variantName;
    }

    @Override
    public int messageBytes(int payload) {
        return Encodings.encode(variantName, StreamMessages.message(0, payload)).length;
    }

    @Override
    public BenchServer startServer() {
        RpcRuntime runtime = DirectRpc.provider(variant, -1, direct
                ? ServiceConfig.builder(DirectStreamBenchService.class, new StreamBenchServiceImpl()).build()
                : ServiceConfig.builder(StreamBenchService.class, new StreamBenchServiceImpl()).build());
        return BenchServer.of(runtime.boundPort(), runtime::close);
    }

    @Override
    public StreamClient openClient(String host, int port, Duration timeout, int payload) {
        RpcRuntime runtime = RpcRuntime.builder().callbacks(direct ? Callbacks.DIRECT : Callbacks.POOL).build();
        StreamBenchService service;
        try {
            Class<? extends StreamBenchService> type = direct ? DirectStreamBenchService.class : StreamBenchService.class;
            service = runtime.refer(DirectRpc.reference(type, host + ":" + port, variant, timeout));
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return new Client(runtime, service, timeout, payload);
    }

    private static final class Client implements StreamClient {
        private final RpcRuntime runtime;
        private final StreamBenchService service;
        private final Duration timeout;
        private final int payload;

        Client(RpcRuntime runtime, StreamBenchService service, Duration timeout, int payload) {
            this.runtime = runtime;
            this.service = service;
            this.timeout = timeout;
            this.payload = payload;
        }

        @Override
        public long serverStreams(int streams, int count) throws Exception {
            List<CompletableFuture<Long>> ends = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                Receiver receiver = new Receiver(payload);
                ends.add(receiver.end);
                service.feed(count, payload, receiver);
            }
            return StreamEnds.sum(ends, count, timeout, "kestrel feed");
        }

        @Override
        public long pingPong(int streams, int trips) throws Exception {
            List<CompletableFuture<Long>> ends = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                PingPong p = new PingPong(trips, payload);
                ends.add(p.end);
                p.requests = service.echo(p);
                p.requests.onNext(StreamMessages.message(0, payload));
            }
            return StreamEnds.sum(ends, trips, timeout, "kestrel echo");
        }

        @Override
        public long bytesWritten() {
            return runtime.inspect().snapshot().wire().bytesWritten();
        }

        @Override
        public long bytesRead() {
            return runtime.inspect().snapshot().wire().bytesRead();
        }

        @Override
        public UnaryProbe unary() {
            return new UnaryProbe() {
                long id;

                @Override
                public void call() {
                    long got = service.next(id);
                    if (got != id + 1) {
                        throw new IllegalStateException("next(" + id + ") returned " + got);
                    }
                    id++;
                }

                @Override
                public AutoCloseable startStream() {
                    Receiver receiver = new Receiver(payload);
                    service.feed(Integer.MAX_VALUE, payload, receiver);
                    return () -> {
                        receiver.handle.cancel("the unary probe is done");
                        receiver.end.handle((n, e) -> n).get(10, TimeUnit.SECONDS);
                    };
                }
            };
        }

        @Override
        public void close() {
            runtime.close();
        }
    }

    /** Takes a feed's messages, checking each; its future completes with their count. */
    private static final class Receiver implements ClientResponseObserver<byte[]> {
        final CompletableFuture<Long> end = new CompletableFuture<>();
        final int payload;
        volatile CallStreamObserver<?> handle;
        long next;

        Receiver(int payload) {
            this.payload = payload;
        }

        @Override
        public void beforeStart(CallStreamObserver<?> stream) {
            handle = stream;
        }

        @Override
        public void onNext(byte[] m) {
            StreamMessages.check(m, next++, payload);
        }

        @Override
        public void onError(Throwable error) {
            end.completeExceptionally(error);
        }

        @Override
        public void onCompleted() {
            end.complete(next);
        }
    }

    /** One ping-pong stream: each echo (checked) sends the next message, the last one half-closes. */
    private static final class PingPong implements StreamObserver<byte[]> {
        final CompletableFuture<Long> end = new CompletableFuture<>();
        final int trips;
        final int payload;
        volatile StreamObserver<byte[]> requests;
        long done;

        PingPong(int trips, int payload) {
            this.trips = trips;
            this.payload = payload;
        }

        @Override
        public void onNext(byte[] m) {
            StreamMessages.check(m, done, payload);
            if (++done < trips) {
                requests.onNext(StreamMessages.message(done, payload));
            } else {
                requests.onCompleted();
            }
        }

        @Override
        public void onError(Throwable error) {
            end.completeExceptionally(error);
        }

        @Override
        public void onCompleted() {
            end.complete(done);
        }
    }
}
