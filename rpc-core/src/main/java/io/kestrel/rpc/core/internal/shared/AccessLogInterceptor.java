package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.interceptor.CountingStreamListener;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log: one INFO line per call, written when the call ends, to
 * {@code io.kestrel.rpc.access.client} (consumer) or {@code io.kestrel.rpc.access.server} (provider):
 * <pre>
 * com.example.UserService:1.0#get ok 1.84 ms peer=127.0.0.1:20880
 * com.example.UserService:1.0#get timeout 200.31 ms peer=127.0.0.1:52814 request=23B
 * </pre>
 * service#method, outcome ({@link CallOutcome#tag()}), duration, the other side, and on the
 * provider the request body's bytes. Outermost in the chain, so it sees refusals by the limits too. A stream gets
 * its line when it ends, with the messages this side sent and received:
 * <pre>
 * com.example.Feeds#prices ok 5012.40 ms peer=127.0.0.1:20880 sent=0 received=1200
 * </pre>
 */
final class AccessLogInterceptor {
    static final Logger CLIENT_LOG = LoggerFactory.getLogger("io.kestrel.rpc.access.client");
    static final Logger SERVER_LOG = LoggerFactory.getLogger("io.kestrel.rpc.access.server");

    /** Test hook: also receives every line (logger name, line); null in production. */
    static volatile BiConsumer<String, String> observer;

    private AccessLogInterceptor() {
    }

    static void log(Logger log, CallInfo call, Throwable error, long startNanos, String extra) {
        BiConsumer<String, String> o = observer;
        if (!log.isInfoEnabled() && o == null) {
            return;
        }
        long micros = (System.nanoTime() - startNanos) / 1000;
        String line = call.displayName() + " " + CallOutcome.of(error).tag() + " " + micros / 1000 + "."
                + String.format("%02d", (micros % 1000) / 10) + " ms peer=" + call.peerAddress() + extra;
        log.info(line);
        if (o != null) {
            o.accept(log.getName(), line);
        }
    }

    /** Counts a stream's messages and logs its line when it ends. */
    private static final class StreamLine extends CountingStreamListener {
        private final Logger log;
        private final CallInfo call;
        private final String extra;
        private final long start = System.nanoTime();

        StreamLine(Logger log, CallInfo call, String extra) {
            this.log = log;
            this.call = call;
            this.extra = extra;
        }

        @Override
        public void onEnd(Throwable error) {
            log(log, call, error, start, extra + " sent=" + sent() + " received=" + received());
        }
    }

    /** For a stream: its line is logged when it ends (see {@link StreamLine}); true when it was registered. */
    private static boolean streamed(Logger log, CallInfo call, String extra) {
        if (!call.isStream()) {
            return false;
        }
        call.addStreamListener(new StreamLine(log, call, extra));
        return true;
    }

    /** The consumer's side. */
    static final class Client implements ClientInterceptor {
        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            if (streamed(CLIENT_LOG, chain.call(), "")) {
                return chain.proceed();
            }
            long start = System.nanoTime();
            return chain.proceed().whenComplete((v, e) -> log(CLIENT_LOG, chain.call(), e, start, ""));
        }

        @Override
        public int order() {
            return InterceptorOrder.ACCESS_LOG;
        }

        @Override
        public String name() {
            return "access log";
        }
    }

    /** The provider's side. */
    static final class Server implements ServerInterceptor {
        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            if (streamed(SERVER_LOG, chain.call(), " request=" + chain.call().requestBytes() + "B")) {
                return chain.proceed();
            }
            long start = System.nanoTime();
            return chain.proceed().whenComplete((v, e) -> log(SERVER_LOG, chain.call(), e, start,
                    " request=" + chain.call().requestBytes() + "B"));
        }

        @Override
        public int order() {
            return InterceptorOrder.ACCESS_LOG;
        }

        @Override
        public String name() {
            return "access log";
        }
    }
}
