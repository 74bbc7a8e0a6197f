#!/usr/bin/env bash
# Runs the Kestrel RPC benchmark from the repository root and writes perf-results/.
#
#   perf-test/run.sh                 default matrix (10 threads, 5 s warm-up, 10 s measured; ~7 min on 2 cores)
#   perf-test/run.sh --quick         smoke-test sizes (< 1 min)
#   perf-test/run.sh --rounds 3      the matrix 3 times, systems in alternating order; report per configuration the
#                                    median TPS, its min-max and the median of the ratios taken within each round
#                                    (every round's rows: perf-results-rounds.csv); combines with --jdks, --inflight
#   perf-test/run.sh --help          all options (threads, durations, systems, workloads, output dir, ...)
#   perf-test/run.sh jmh [--quick]   the JMH serializer suite (JmhMain; --codecs, --shapes, --out)
#   perf-test/run.sh soak [--minutes N] [--threads N] [--serialization kryo]
#                                    opt-in soak (SoakMain; default 5 min, 10 threads, kryo; not run by CI)
#   perf-test/run.sh soak --attacks all|slow-reader,amplify,greedy,trickle,flood [--minutes N]
#                                    the soak beside hostile clients, the provider with small limits
#   perf-test/run.sh soak --attacks ports|generic-refs,...,hessian-array-names [--protocols native,dubbo]
#                                    issue 34's attacks one at a time against each port, default limits (PortSoak)
#   perf-test/run.sh startup [--runs N] [--serialization fory] [--target-ms 2000]
#                                    cold start: provider JVM to ready, consumer JVM to its first call (StartupMain)
#   perf-test/run.sh obscost [--calls N] [--rounds N]
#                                    CPU ns and bytes per call of the -observed and -otel systems' interceptors
#                                    alone, on one thread (InterceptorCostMain; load-independent, unlike TPS)
#   perf-test/run.sh handoff [--trips N] [--rounds N]
#                                    CPU per call of the business pool's two thread hand-offs against an event
#                                    loop answering itself, nothing else (HandoffCostMain)
#   perf-test/run.sh streams [--rounds 3] [--systems ...] [--quick]
#                                    streaming: server streaming msgs/s, ping-pong round trips/s, wire bytes per
#                                    message, unary p99 beside a stream; the framework against a raw-Netty loop
#                                    and grpc-java (StreamPerfMain; perf-results/streams/)
#
# Set SKIP_BUILD=1 to reuse the last build. The client JVM gets the same flags as the server JVMs it starts:
# Netty's --enable-native-access and fst's --add-opens (root pom properties netty.jvm.flags and fst.jvm.opens,
# copied into perf-jvm.properties by Maven).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  # perf-test-dubbo, perf-test-grpc: stock Dubbo's and grpc-java's systems, on class paths of their own (IsolatedModule)
  mvn -q -DskipTests package -pl perf-test,perf-test-dubbo,perf-test-grpc -am
fi

CP="perf-test/target/classes:$(cat perf-test/target/classpath.txt)"
OPENS="$(sed -n 's/^netty.jvm.flags=//p; s/^fst.jvm.opens=//p' perf-test/target/classes/perf-jvm.properties | tr '\n' ' ')"
MAIN=io.kestrel.rpc.perf.compare.PerfMain
if [[ "${1:-}" == "jmh" ]]; then
  shift
  MAIN=io.kestrel.rpc.perf.jmh.JmhMain
elif [[ "${1:-}" == "soak" ]]; then
  shift
  MAIN=io.kestrel.rpc.perf.soak.SoakMain
elif [[ "${1:-}" == "startup" ]]; then
  shift
  MAIN=io.kestrel.rpc.perf.startup.StartupMain
elif [[ "${1:-}" == "obscost" ]]; then
  shift
  MAIN=io.kestrel.rpc.perf.observability.InterceptorCostMain
elif [[ "${1:-}" == "handoff" ]]; then
  shift
  MAIN=io.kestrel.rpc.perf.handoff.HandoffCostMain
elif [[ "${1:-}" == "streams" ]]; then
  shift
  MAIN=io.kestrel.rpc.perf.streams.StreamPerfMain
fi
# shellcheck disable=SC2086 # OPENS is a list of flags
exec java -Xms512m -Xmx512m -Djava.awt.headless=true -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  $OPENS -cp "$CP" "$MAIN" "$@"
