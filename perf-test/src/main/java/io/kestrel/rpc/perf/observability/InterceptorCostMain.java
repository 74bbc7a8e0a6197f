package io.kestrel.rpc.perf.observability;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.ClientCallInfo;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerCallInfo;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.ObservedRpc;
import io.kestrel.rpc.perf.support.ProcessCpu;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * CPU time and bytes allocated per call by the interceptors of the {@code kestrel-*-observed} and
 * {@code kestrel-*-otel} systems alone: one thread runs a consumer's chain ({@link ObservedRpc}'s
 * client interceptors) whose request the provider's chain (its server interceptors, the trace context
 * carried over in the attachments) answers at once, with no network, serialization or service. The
 * calling thread's CPU time ({@code ThreadMXBean}) hardly depends on what else the machine runs, unlike
 * TPS; the process figure adds the batch span processor's thread. A last setup runs the metrics
 * interceptors alone, so the tracing's share is the difference. Each round runs every setup in turn;
 * the medians of the rounds are printed.
 *
 * <pre>
 * perf-test/run.sh obscost [--calls N] [--rounds N]     (default 200,000 calls, 7 rounds after 2 of warm-up)
 * </pre>
 */
public final class InterceptorCostMain {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final ServiceKey SERVICE = ServiceKey.of(BenchmarkService.class);
    private static final int WARMUP_ROUNDS = 2;

    private InterceptorCostMain() {
    }

    public static void main(String[] args) throws Exception {
        int calls = 200_000;
        int rounds = 7;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("Unknown option '" + args[i]
                        + "'; known: --calls N, --rounds N");
            }
        }
        System.out.printf("Interceptor chains of one bid call (consumer + provider), %,d calls x %d rounds, medians:%n",
                calls, rounds);
        for (Result r : measure(calls, rounds)) {
            System.out.printf("  %-40s calling thread %,6.0f ns CPU, process %,6.0f ns CPU, %,6.0f B allocated per call%n",
                    r.setup(), r.threadNanos(), r.processNanos(), r.bytes());
        }
    }

    /** Medians per call of one setup; "none" is the harness itself (call objects, maps, futures). */
    record Result(String setup, double threadNanos, double processNanos, double bytes) {
    }

    /**
     * Runs {@code rounds} rounds (after two of warm-up) of {@code calls} calls of each setup: none, observed, otel,
     * metrics only.
     */
    static List<Result> measure(int calls, int rounds) throws NoSuchMethodException {
        Method bid = BenchmarkService.class.getMethod("bid", BidRequest.class);
        ObservedRpc metricsConsumer = new ObservedRpc(ObservedRpc.Tracing.OPENTELEMETRY);
        ObservedRpc metricsProvider = new ObservedRpc(ObservedRpc.Tracing.OPENTELEMETRY);
        List<Setup> setups = List.of(new Setup("none (the harness itself)", null, null, List.of(), List.of()),
                Setup.of("observed (metrics + KestrelTracing)", ObservedRpc.Tracing.OBSERVATION),
                Setup.of("otel (metrics + KestrelOpenTelemetry)", ObservedRpc.Tracing.OPENTELEMETRY),
                new Setup("metrics only (KestrelMetrics)", metricsConsumer, metricsProvider,
                        metricsConsumer.metricsClientInterceptors(), metricsProvider.metricsServerInterceptors()));
        try {
            for (int r = 0; r < WARMUP_ROUNDS + rounds; r++) {
                for (Setup s : setups) {
                    s.round(bid, calls, r >= WARMUP_ROUNDS);
                }
            }
            List<Result> results = new ArrayList<>();
            for (Setup s : setups) {
                results.add(new Result(s.name, median(s.threadNanos), median(s.processNanos), median(s.bytes)));
            }
            return results;
        } finally {
            for (Setup s : setups) {
                s.close();
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    /** One setup: a consumer's and a provider's interceptors, each side with its own registries and SDK. */
    private static final class Setup {
        final String name;
        final ObservedRpc consumer;
        final ObservedRpc provider;
        final List<ClientInterceptor> client;
        final List<ServerInterceptor> server;
        final List<Double> threadNanos = new ArrayList<>();
        final List<Double> processNanos = new ArrayList<>();
        final List<Double> bytes = new ArrayList<>();

        Setup(String name, ObservedRpc consumer, ObservedRpc provider, List<ClientInterceptor> client,
                List<ServerInterceptor> server) {
            this.name = name;
            this.consumer = consumer;
            this.provider = provider;
            this.client = client;
            this.server = server;
        }

        /** Metrics and tracing, as {@link ObservedRpc#install} registers them. */
        static Setup of(String name, ObservedRpc.Tracing tracing) {
            ObservedRpc consumer = new ObservedRpc(tracing);
            ObservedRpc provider = new ObservedRpc(tracing);
            return new Setup(name, consumer, provider, consumer.clientInterceptors(), provider.serverInterceptors());
        }

        void round(Method method, int calls, boolean counted) {
            long thread = Thread.currentThread().getId();
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            long process0 = ProcessCpu.processCpuNanos();
            long bytes0 = THREADS.getThreadAllocatedBytes(thread);
            for (int i = 0; i < calls; i++) {
                Call sent = new Call(method, new HashMap<>(4));
                CompletableFuture<Object> answer = new CompletableFuture<>();
                CompletableFuture<Object> result = client(0, sent, answer);
                Call received = new Call(method, Collections.unmodifiableMap(new HashMap<>(sent.requestAttachments())));
                answer.complete(server(0, received).join());
                result.join();
            }
            if (counted) {
                threadNanos.add((THREADS.getCurrentThreadCpuTime() - cpu0) / (double) calls);
                processNanos.add((ProcessCpu.processCpuNanos() - process0) / (double) calls);
                bytes.add((THREADS.getThreadAllocatedBytes(thread) - bytes0) / (double) calls);
            }
        }

        /** The consumer's chain from interceptor {@code i}; its end is the provider's answer. */
        private CompletableFuture<Object> client(int i, Call call, CompletableFuture<Object> answer) {
            if (i == client.size()) {
                return answer;
            }
            return client.get(i).intercept(new ClientInterceptor.Chain() {
                @Override
                public ClientCallInfo call() {
                    return call;
                }

                @Override
                public CompletableFuture<Object> proceed() {
                    return client(i + 1, call, answer);
                }
            });
        }

        /** The provider's chain from interceptor {@code i}; its end answers at once. */
        private CompletableFuture<Object> server(int i, Call call) {
            if (i == server.size()) {
                return CompletableFuture.completedFuture("answer");
            }
            return server.get(i).intercept(new ServerInterceptor.Chain() {
                @Override
                public ServerCallInfo call() {
                    return call;
                }

                @Override
                public CompletableFuture<Object> proceed() {
                    return server(i + 1, call);
                }
            });
        }

        void close() {
            if (consumer != null) {
                consumer.close();
                provider.close();
            }
        }
    }

    /** A bid call as either side's interceptors see it. */
    private static final class Call implements ClientCallInfo, ServerCallInfo {
        private final Method method;
        private final Map<String, String> requestAttachments;
        private final Map<String, String> responseAttachments = new HashMap<>(4);

        Call(Method method, Map<String, String> requestAttachments) {
            this.method = method;
            this.requestAttachments = requestAttachments;
        }

        @Override
        public ServiceKey service() {
            return SERVICE;
        }

        @Override
        public Method method() {
            return method;
        }

        @Override
        public Object[] arguments() {
            return new Object[0];
        }

        @Override
        public Map<String, String> requestAttachments() {
            return requestAttachments;
        }

        @Override
        public Map<String, String> responseAttachments() {
            return responseAttachments;
        }

        @Override
        public String serialization() {
            return "kryo";
        }

        @Override
        public String peerAddress() {
            return "127.0.0.1:20880";
        }

        @Override
        public long timeoutMillis() {
            return 5_000;
        }

        @Override
        public void limitTimeout(Duration max) {
            // no deadline to lower here
        }

        @Override
        public boolean isAsync() {
            return false;
        }

        @Override
        public long remainingMillis() {
            return 5_000;
        }

        @Override
        public int requestBytes() {
            return 1_100;
        }
    }
}
