package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A provider's {@code CompletableFuture} method is answered with its future's outcome whether the future is
 * already complete when the method returns (answered at once, without a dependent stage) or completes later on
 * another thread: values, failures and cancellation alike, and every call is answered exactly once (the
 * connection's calls-per-connection slot is given back: more calls than the slots all answer).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncProviderAnswerTest {

    public interface Answers {
        CompletableFuture<String> doneValue(String text);

        CompletableFuture<String> doneFailure(String message);

        CompletableFuture<String> doneCancelled();

        CompletableFuture<String> laterValue(String text);

        CompletableFuture<String> laterFailure(String message);
    }

    /** The "later" futures complete on a thread of their own once the test releases it. */
    static final class AnswersImpl implements Answers {
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public CompletableFuture<String> doneValue(String text) {
            return CompletableFuture.completedFuture(text);
        }

        @Override
        public CompletableFuture<String> doneFailure(String message) {
            return CompletableFuture.failedFuture(new IllegalStateException(message));
        }

        @Override
        public CompletableFuture<String> doneCancelled() {
            CompletableFuture<String> f = new CompletableFuture<>();
            f.cancel(false);
            return f;
        }

        @Override
        public CompletableFuture<String> laterValue(String text) {
            return completeLater(f -> f.complete(text));
        }

        @Override
        public CompletableFuture<String> laterFailure(String message) {
            return completeLater(f -> f.completeExceptionally(new IllegalStateException(message)));
        }

        private CompletableFuture<String> completeLater(java.util.function.Consumer<CompletableFuture<String>> end) {
            CompletableFuture<String> f = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                end.accept(f);
            }, "answers-later");
            t.setDaemon(true);
            t.start();
            return f;
        }
    }

    private final AnswersImpl impl = new AnswersImpl();
    private RpcRuntime provider;
    private RpcRuntime consumer;
    private Answers answers;

    @BeforeEach
    void start() {
        // 2 calls per connection: a call whose slot were not given back would make the later ones busy
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().threads(4).build()).build();
        provider.export(ServiceConfig.builder(Answers.class, impl).build());
        consumer = RpcRuntime.builder().build();
        answers = consumer.refer(ReferenceConfig.builder(Answers.class).url("127.0.0.1:" + provider.boundPort())
                .timeout(Duration.ofSeconds(10)).build());
    }

    @AfterEach
    void stop() {
        impl.release.countDown();
        consumer.close();
        provider.close();
    }

    @Test
    void aFutureAlreadyCompleteIsAnsweredWithItsValueOrFailure() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertEquals("v" + i, answers.doneValue("v" + i).get(10, TimeUnit.SECONDS));
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> answers.doneFailure("no").get(10, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertEquals("no", e.getCause().getMessage());
        }
    }

    @Test
    void aFutureAlreadyCancelledIsAnsweredAsItsCancellation() throws Exception {
        // the caller's future fails with the provider's CancellationException, which get() throws as it is
        assertThrows(CancellationException.class, () -> answers.doneCancelled().get(10, TimeUnit.SECONDS));
        assertEquals("after", answers.doneValue("after").get(10, TimeUnit.SECONDS));
    }

    @Test
    void aFutureCompletedLaterOnAnotherThreadIsAnsweredThen() throws Exception {
        CompletableFuture<String> value = answers.laterValue("late");
        CompletableFuture<String> failure = answers.laterFailure("late no");
        impl.release.countDown();
        assertEquals("late", value.get(10, TimeUnit.SECONDS));
        ExecutionException e = assertThrows(ExecutionException.class, () -> failure.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals("late no", e.getCause().getMessage());
        assertEquals("again", answers.doneValue("again").get(10, TimeUnit.SECONDS)); // both slots were given back
    }
}
