package io.kestrel.rpc.core.stream;

import io.kestrel.rpc.api.stream.CallStreamObserver;
import io.kestrel.rpc.api.stream.StreamCancelledException;
import io.kestrel.rpc.api.stream.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** What {@link FeedService} does, with what the tests read back: messages sent, how an endless stream ended. */
public final class FeedServiceImpl implements FeedService {
    final AtomicInteger endlessSent = new AtomicInteger();
    final CompletableFuture<Throwable> endlessEnded = new CompletableFuture<>();
    final AtomicReference<Throwable> requestStreamError = new AtomicReference<>();
    final CompletableFuture<Throwable> echoEnded = new CompletableFuture<>();
    /** The first error an echo's request observer saw. */
    final CompletableFuture<Throwable> echoFailed = new CompletableFuture<>();

    @Override
    public void count(Integer from, Integer n, StreamObserver<Integer> out) {
        for (int i = 0; i < n; i++) {
            out.onNext(from + i);
        }
        out.onCompleted();
    }

    @Override
    public void endless(StreamObserver<Integer> out) {
        try {
            for (int i = 0; ; i++) {
                out.onNext(i);
                endlessSent.incrementAndGet();
            }
        } catch (RuntimeException e) {
            endlessEnded.complete(e);
            throw e;
        }
    }

    @Override
    public void failAfter(Integer n, StreamObserver<Integer> out) {
        for (int i = 0; i < n; i++) {
            out.onNext(i);
        }
        throw new IllegalStateException("failed after " + n + " messages");
    }

    @Override
    public StreamObserver<Integer> sum(StreamObserver<Long> out) {
        return new StreamObserver<>() {
            long sum;

            @Override
            public void onNext(Integer value) {
                sum += value;
            }

            @Override
            public void onError(Throwable error) {
                requestStreamError.set(error);
            }

            @Override
            public void onCompleted() {
                out.onNext(sum);
                out.onCompleted();
            }
        };
    }

    @Override
    public StreamObserver<String> echo(StreamObserver<String> out) {
        return new StreamObserver<>() {
            @Override
            public void onNext(String value) {
                if (value.equals("cancel")) {
                    ((CallStreamObserver<String>) out).cancel("the provider had enough");
                } else {
                    out.onNext(value);
                }
            }

            @Override
            public void onError(Throwable error) {
                echoEnded.complete(error);
                echoFailed.complete(error);
            }

            @Override
            public void onCompleted() {
                echoEnded.complete(null);
                out.onCompleted();
            }
        };
    }

    @Override
    public String ping(String s) {
        return "pong " + s;
    }

    /** True once an endless stream saw its end as a cancellation (what onNext threw). */
    boolean endlessCancelled() {
        return endlessEnded.getNow(null) instanceof StreamCancelledException;
    }
}
