package io.kestrel.rpc.api.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The Reactive Streams side of {@link FlowStreams#requests}, against a recording stream observer (the wire side is
 * covered over sockets by rpc-core's ProviderFlowControlTest): demand becomes {@code request(n)}, one subscriber,
 * an end that arrives first is passed on after {@code onSubscribe}, cancel and a bad request cancel the stream.
 */
class RequestPublisherTest {
    /** Records what the publisher asks of its stream. */
    static final class Stream implements CallStreamObserver<Object> {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public void cancel(String reason) {
            calls.add("cancel: " + reason);
        }

        @Override
        public void disableAutoRequest() {
            calls.add("disableAutoRequest");
        }

        @Override
        public void request(long n) {
            calls.add("request " + n);
        }

        @Override
        public void onNext(Object value) {
        }

        @Override
        public void onError(Throwable error) {
        }

        @Override
        public void onCompleted() {
        }
    }

    static class Recorder implements Flow.Subscriber<Object> {
        final List<String> signals = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final long initial;
        Flow.Subscription subscription;

        Recorder(long initial) {
            this.initial = initial;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            signals.add("subscribe");
            if (initial != 0) {
                s.request(initial);
            }
        }

        @Override
        public void onNext(Object item) {
            signals.add("next " + item);
        }

        @Override
        public void onError(Throwable t) {
            error.set(t);
            signals.add("error");
        }

        @Override
        public void onComplete() {
            signals.add("complete");
        }
    }

    @Test
    void demandIsTheStreamsCreditAndItemsFlowInOrder() {
        Stream stream = new Stream();
        AtomicReference<Flow.Publisher<Object>> publisher = new AtomicReference<>();
        StreamObserver<Object> requests = FlowStreams.requests(stream, publisher::set);
        assertEquals(List.of("disableAutoRequest"), stream.calls, "manual flow control from the start");
        Recorder r = new Recorder(2);
        publisher.get().subscribe(r);
        requests.onNext("a");
        requests.onNext("b");
        r.subscription.request(5);
        requests.onCompleted();
        assertEquals(List.of("disableAutoRequest", "request 2", "request 5"), stream.calls);
        assertEquals(List.of("subscribe", "next a", "next b", "complete"), r.signals);
    }

    @Test
    void anEndBeforeTheSubscriberReachesItAfterOnSubscribe() {
        Stream stream = new Stream();
        AtomicReference<Flow.Publisher<Object>> publisher = new AtomicReference<>();
        StreamObserver<Object> requests = FlowStreams.requests(stream, publisher::set);
        requests.onError(new StreamCancelledException("the consumer cancelled"));
        Recorder r = new Recorder(0);
        publisher.get().subscribe(r);
        assertEquals(List.of("subscribe", "error"), r.signals);
        assertInstanceOf(StreamCancelledException.class, r.error.get());
    }

    @Test
    void oneSubscriberOnly() {
        Stream stream = new Stream();
        AtomicReference<Flow.Publisher<Object>> publisher = new AtomicReference<>();
        FlowStreams.requests(stream, publisher::set);
        publisher.get().subscribe(new Recorder(1));
        Recorder second = new Recorder(0);
        publisher.get().subscribe(second);
        assertEquals(List.of("subscribe", "error"), second.signals);
        assertInstanceOf(IllegalStateException.class, second.error.get());
        assertTrue(second.error.get().getMessage().contains("one subscriber"), second.error.get().getMessage());
    }

    @Test
    void cancelAndABadRequestCancelTheStream() {
        Stream stream = new Stream();
        AtomicReference<Flow.Publisher<Object>> publisher = new AtomicReference<>();
        StreamObserver<Object> requests = FlowStreams.requests(stream, publisher::set);
        Recorder r = new Recorder(0);
        publisher.get().subscribe(r);
        r.subscription.cancel();
        requests.onNext("late");
        assertEquals(List.of("disableAutoRequest", "cancel: the subscriber cancelled its subscription"), stream.calls);
        assertEquals(List.of("subscribe"), r.signals, "nothing after a cancel");

        Stream other = new Stream();
        FlowStreams.requests(other, publisher::set);
        Recorder bad = new Recorder(0);
        publisher.get().subscribe(bad);
        bad.subscription.request(0);
        assertEquals(List.of("disableAutoRequest", "cancel: the subscriber requested 0 messages"), other.calls);
        assertInstanceOf(IllegalArgumentException.class, bad.error.get());
    }

    @Test
    void aCancelInOnSubscribeCancelsTheStream() {
        Stream stream = new Stream();
        AtomicReference<Flow.Publisher<Object>> publisher = new AtomicReference<>();
        FlowStreams.requests(stream, publisher::set);
        publisher.get().subscribe(new Recorder(0) {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                s.cancel();
            }
        });
        assertEquals(List.of("disableAutoRequest", "cancel: the subscriber cancelled its subscription"), stream.calls);
    }
}
