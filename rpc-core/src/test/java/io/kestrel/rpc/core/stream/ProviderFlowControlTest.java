package io.kestrel.rpc.core.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.FlowStreams;
import io.kestrel.rpc.api.stream.StreamObserver;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Manual flow control on the provider over real sockets: a provider method that disables automatic requests gets
 * exactly what it requests and the consumer's sender waits for the rest; a Flow subscriber on the provider
 * ({@link FlowStreams#requests}) reads a long stream in order with small demands; misuse gets clear errors.
 */
class ProviderFlowControlTest {
    RpcRuntime provider;
    RpcRuntime consumer;
    Intake.Impl impl = new Intake.Impl();
    Intake intake;

    @BeforeEach
    void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        provider.export(ServiceConfig.builder(Intake.class, impl).build());
        consumer = RpcRuntime.builder().build();
        intake = consumer.refer(ReferenceConfig.builder(Intake.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(120)).build()); // the 10,000 in lock-step take seconds on a busy machine
    }

    @AfterEach
    void stop() {
        consumer.close();
        provider.close();
    }

    @Test
    void providerRequestingTenReceivesTenAndHoldsTheConsumersSender() throws Exception {
        Collector<Long> answer = new Collector<>();
        StreamObserver<Integer> in = intake.manual(10, answer);
        int total = 1000;
        AtomicInteger sent = new AtomicInteger();
        CompletableFuture<Throwable> senderDone = new CompletableFuture<>();
        Thread sender = new Thread(() -> {
            try {
                for (int i = 0; i < total; i++) {
                    in.onNext(i); // waits while the provider granted no credit
                    sent.incrementAndGet();
                }
                in.onCompleted();
                senderDone.complete(null);
            } catch (RuntimeException e) {
                senderDone.complete(e);
            }
        }, "intake-sender");
        sender.start();
        Await.until("the provider received its 10", () -> impl.manualReceived.size() == 10);
        Await.until("the consumer's sender waits for credit after 10", () -> waitingForCredit(sender));
        assertEquals("x", intake.ping("x")); // a unary round trip on the same connection: anything sent meanwhile has arrived
        assertEquals(10, sent.get(), "messages the consumer sent with 10 requested");
        assertEquals(IntStream.range(0, 10).boxed().toList(), impl.manualReceived);
        assertTrue(waitingForCredit(sender), "the sender still waits: nothing is buffered for it");
        assertTrue(!((CallStreamObserver<Integer>) in).isReady(), "no credit: not ready");

        impl.manualOut.request(5);
        Await.until("5 more arrive", () -> impl.manualReceived.size() == 15);
        Await.until("the sender waits again after 15", () -> sent.get() == 15 && waitingForCredit(sender));
        assertEquals(15, impl.manualReceived.size());

        impl.manualOut.request(total); // the rest flows, granted a window at a time
        assertNull(senderDone.get(30, TimeUnit.SECONDS));
        assertNull(answer.end());
        assertEquals(List.of((long) total * (total - 1) / 2), answer.received);
        assertEquals(IntStream.range(0, total).boxed().toList(), impl.manualReceived);
        assertNull(impl.manualEnded.get(10, TimeUnit.SECONDS));
    }

    /** The thread is parked waiting for stream credit (inside the sender's window). */
    private static boolean waitingForCredit(Thread t) {
        Thread.State state = t.getState();
        return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) && Arrays
                .stream(t.getStackTrace()).anyMatch(f -> f.getClassName().endsWith("SendWindow"));
    }

    @Test
    void providerRequestingNothingGrantsNothing() throws Exception {
        Collector<Long> answer = new Collector<>();
        CallStreamObserver<Integer> in = (CallStreamObserver<Integer>) intake.manual(0, answer);
        Await.until("the provider's method ran", () -> impl.manualOut != null);
        assertEquals("x", intake.ping("x")); // a round trip after the method returned: a window it granted would be here
        assertTrue(!in.isReady(), "the consumer has no credit while the provider requested nothing");
        impl.manualOut.request(1);
        Await.until("one credit arrives", in::isReady);
        in.onNext(7);
        Await.until("the provider got it", () -> impl.manualReceived.equals(List.of(7)));
        in.onCompleted();
        assertNull(answer.end());
        assertEquals(List.of(7L), answer.received);
    }

    @Test
    void flowSubscriberOnTheProviderReadsTenThousandInOrderWithSmallRequests() throws Exception {
        Collector<Long> answer = new Collector<>();
        StreamObserver<Integer> in = intake.flow(10, answer); // lock-step: 10 granted, 10 taken, 10 more
        int total = 10_000;
        for (int i = 0; i < total; i++) {
            in.onNext(i);
        }
        in.onCompleted();
        assertNull(answer.end());
        assertEquals(List.of((long) total), answer.received);
        assertNull(impl.flowEnded.get(10, TimeUnit.SECONDS));
        assertEquals(List.of(), impl.flowViolations, "items out of order or beyond the subscriber's demand");
    }

    @Test
    void requestPublisherFedBackAsTheAnswers() throws Exception {
        Collector<String> answers = new Collector<>();
        StreamObserver<String> in = intake.echo(answers);
        List<String> sent = IntStream.range(0, 2000).mapToObj(i -> "m" + i).toList();
        sent.forEach(in::onNext);
        in.onCompleted();
        assertNull(answers.end());
        assertEquals(sent, answers.received);
        assertNull(impl.echoEnded.get(10, TimeUnit.SECONDS));
    }

    @Test
    void misuseGetsClearErrors() throws Exception {
        Collector<Long> answer = new Collector<>();
        StreamObserver<Integer> in = intake.manual(1, answer);
        Await.until("the method returned", () -> impl.manualOut != null);
        in.onNext(1);
        Await.until("delivered", () -> impl.manualReceived.size() == 1);
        IllegalStateException late = assertThrows(IllegalStateException.class, impl.manualOut::disableAutoRequest);
        assertTrue(late.getMessage().contains("after the method returned")
                && late.getMessage().contains("before it returns"), late.getMessage());
        IllegalStateException lateFlow = assertThrows(IllegalStateException.class,
                () -> FlowStreams.requests(impl.manualOut, p -> { }));
        assertTrue(lateFlow.getMessage().contains("disableAutoRequest"), lateFlow.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> impl.manualOut.request(0));
        assertTrue(zero.getMessage().contains("request(0)"), zero.getMessage());
        in.onCompleted();
        assertNull(answer.end());

        IllegalArgumentException notAStream = assertThrows(IllegalArgumentException.class,
                () -> FlowStreams.requests(new Collector<Long>(), p -> { }));
        assertTrue(notAStream.getMessage().contains("CallStreamObserver"), notAStream.getMessage());

        Collector<String> none = new Collector<>();
        intake.serverStream(none);
        assertNull(none.end());
        Throwable serverStreaming = impl.serverStreamMisuse.get(10, TimeUnit.SECONDS);
        assertInstanceOf(UnsupportedOperationException.class, serverStreaming);
        assertTrue(serverStreaming.getMessage().contains("server streaming"), serverStreaming.getMessage());
    }
}
