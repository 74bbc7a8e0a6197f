package io.kestrel.rpc.core.stream;

import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.FlowStreams;
import io.kestrel.rpc.api.stream.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/** Request streams the provider takes under manual flow control, its own or through {@link FlowStreams#requests}. */
public interface Intake {
    /** Client streaming: requests {@code first} messages, then what the test requests; answers the sum. */
    StreamObserver<Integer> manual(Integer first, StreamObserver<Long> out);

    /** Client streaming through a Flow subscriber requesting {@code batch} at a time; answers how many, in order. */
    StreamObserver<Integer> flow(Integer batch, StreamObserver<Long> out);

    /** Bidirectional: the request publisher fed back as the answers ({@code FlowStreams.feed}). */
    StreamObserver<String> echo(StreamObserver<String> out);

    /** Server streaming: tries {@code disableAutoRequest} on its response observer, then completes. */
    void serverStream(StreamObserver<String> out);

    /** Unary, on the same connection. */
    String ping(String s);

    /** What the provider saw, for the test. */
    final class Impl implements Intake {
        volatile CallStreamObserver<Long> manualOut;
        final List<Integer> manualReceived = new CopyOnWriteArrayList<>();
        final CompletableFuture<Throwable> manualEnded = new CompletableFuture<>();
        final CompletableFuture<Throwable> flowEnded = new CompletableFuture<>();
        /** Items the flow subscriber got beyond its demand, or out of order (must stay empty). */
        final List<String> flowViolations = new CopyOnWriteArrayList<>();
        final CompletableFuture<Throwable> serverStreamMisuse = new CompletableFuture<>();
        final CompletableFuture<Throwable> echoEnded = new CompletableFuture<>();

        @Override
        public StreamObserver<Integer> manual(Integer first, StreamObserver<Long> out) {
            CallStreamObserver<Long> stream = (CallStreamObserver<Long>) out;
            stream.disableAutoRequest();
            if (first > 0) {
                stream.request(first);
            }
            manualOut = stream;
            AtomicLong sum = new AtomicLong();
            return new StreamObserver<>() {
                @Override
                public void onNext(Integer value) {
                    manualReceived.add(value);
                    sum.addAndGet(value);
                }

                @Override
                public void onError(Throwable error) {
                    manualEnded.complete(error);
                }

                @Override
                public void onCompleted() {
                    manualEnded.complete(null);
                    out.onNext(sum.get());
                    out.onCompleted();
                }
            };
        }

        @Override
        public StreamObserver<Integer> flow(Integer batch, StreamObserver<Long> out) {
            return FlowStreams.requests(out, in -> in.subscribe(new Flow.Subscriber<Integer>() {
                Flow.Subscription subscription;
                long requested;
                long received;

                @Override
                public void onSubscribe(Flow.Subscription s) {
                    subscription = s;
                    requested = batch;
                    s.request(batch);
                }

                @Override
                public void onNext(Integer item) {
                    if (item != received) {
                        flowViolations.add("item " + item + " arrived as number " + received);
                    }
                    if (++received > requested) {
                        flowViolations.add("item " + item + " beyond the demand of " + requested);
                    }
                    if (received == requested) {
                        requested += batch;
                        subscription.request(batch);
                    }
                }

                @Override
                public void onError(Throwable error) {
                    flowEnded.complete(error);
                }

                @Override
                public void onComplete() {
                    flowEnded.complete(null);
                    out.onNext(received);
                    out.onCompleted();
                }
            }));
        }

        @Override
        public StreamObserver<String> echo(StreamObserver<String> out) {
            return FlowStreams.requests(out, in -> FlowStreams.feed(in, new StreamObserver<String>() {
                @Override
                public void onNext(String value) {
                    out.onNext(value);
                }

                @Override
                public void onError(Throwable error) {
                    echoEnded.complete(error);
                    out.onError(error);
                }

                @Override
                public void onCompleted() {
                    echoEnded.complete(null);
                    out.onCompleted();
                }
            }));
        }

        @Override
        public String ping(String s) {
            return s;
        }

        @Override
        public void serverStream(StreamObserver<String> out) {
            try {
                ((CallStreamObserver<String>) out).disableAutoRequest();
                serverStreamMisuse.complete(null);
            } catch (RuntimeException e) {
                serverStreamMisuse.complete(e);
            }
            out.onCompleted();
        }
    }
}
