#!/usr/bin/env bash
# Runs the Kestrel RPC demo end to end on this machine, in two JVMs:
#   1. builds demo-provider and demo-consumer and the modules they need (mvn package, tests skipped);
#   2. starts the provider (Spring XML), which hosts the embedded ZooKeeper (127.0.0.1:2182, or joins the one
#      another process on this host runs there) and logs its address;
#   3. runs the consumer (annotations) against that ZooKeeper (embedded://PORT: it joins as a member, with this
#      user's secret in ~/.kestrel/embedded-registry): a few calls, then ~3 s of bid() from 10 threads;
#      the consumer sets no serialization or optimizer: it adopts the provider's from the registry record;
#   4. stops the provider (SIGTERM: services unregistered, in-flight calls drained, ZooKeeper stopped).
# Exits non-zero if any step fails; leaves nothing running.
#
# Environment: DEMO_SERIALIZATION (fory|kryo|fst|hessian2|fastjson2|java, default fory; set on the provider
# only, the consumer follows), DEMO_THREADS (10),
# DEMO_SECONDS (3), DEMO_SKIP_BUILD=1 to reuse the last build, MVN_ARGS (e.g. -o for offline).
set -euo pipefail
cd "$(dirname "$0")"

serialization=${DEMO_SERIALIZATION:-fory}
version=0.1.0-SNAPSHOT
provider_jar=demo-provider/target/demo-provider-$version.jar
consumer_jar=demo-consumer/target/demo-consumer-$version.jar

if [ "${DEMO_SKIP_BUILD:-0}" != 1 ]; then
  echo "==> Building demo-provider, demo-consumer and their modules (mvn package, tests skipped)"
  # shellcheck disable=SC2086
  mvn -q -B ${MVN_ARGS:-} -Dmaven.test.skip=true -pl demo-provider,demo-consumer -am package
fi
for jar in "$provider_jar" "$consumer_jar"; do
  [ -f "$jar" ] || { echo "missing $jar; run without DEMO_SKIP_BUILD=1" >&2; exit 1; }
done

# fst reflects into JDK internals; the root POM keeps the flags it needs (harmless for the others), and
# Netty's --enable-native-access (on JDK 25+ it lets Netty free direct memory without stopping every thread).
jvm_opens="$(sed -n 's:.*<netty.jvm.flags>\(.*\)</netty.jvm.flags>.*:\1:p' pom.xml) $(sed -n 's:.*<fst.jvm.opens>\(.*\)</fst.jvm.opens>.*:\1:p' pom.xml)"
log_dir=$(mktemp -d "${TMPDIR:-/tmp}/kestrel-demo.XXXXXX")
provider_log=$log_dir/provider.log
provider_pid=

stop_provider() {
  if [ -n "$provider_pid" ] && kill -0 "$provider_pid" 2>/dev/null; then
    kill -TERM "$provider_pid" 2>/dev/null || true
    for _ in $(seq 1 150); do              # up to 15 s for a graceful shutdown
      kill -0 "$provider_pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$provider_pid" 2>/dev/null; then
      echo "provider did not stop within 15 s; killing it" >&2
      kill -KILL "$provider_pid" 2>/dev/null || true
    fi
    wait "$provider_pid" 2>/dev/null || true
  fi
  provider_pid=
}
cleanup() {
  stop_provider
  rm -rf "$log_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "==> Starting the provider (embedded ZooKeeper, serialization $serialization)"
# shellcheck disable=SC2086
java $jvm_opens -Drpc.protocol.port=0 -Drpc.protocol.serialization="$serialization" \
  -jar "$provider_jar" >"$provider_log" 2>&1 &
provider_pid=$!

registry=
for _ in $(seq 1 300); do                  # up to 30 s
  if ! kill -0 "$provider_pid" 2>/dev/null; then
    echo "The provider exited during startup:" >&2
    cat "$provider_log" >&2
    exit 1
  fi
  registry=$(sed -n 's/.*Kestrel demo provider ready.*registry \(embedded:\/\/[0-9]*\).*/\1/p' "$provider_log")
  [ -n "$registry" ] && break
  sleep 0.1
done
if [ -z "$registry" ]; then
  echo "The provider did not get ready within 30 s:" >&2
  cat "$provider_log" >&2
  exit 1
fi
grep -E "Embedded ZooKeeper hosted|Joined the embedded|Exported|demo provider ready" "$provider_log" | sed 's/^/  provider| /'

echo "==> Running the consumer against $registry"
consumer_status=0
# shellcheck disable=SC2086
java $jvm_opens -Drpc.registry.address="$registry" \
  -Ddemo.threads="${DEMO_THREADS:-10}" -Ddemo.seconds="${DEMO_SECONDS:-3}" \
  -jar "$consumer_jar" || consumer_status=$?

echo "==> Stopping the provider"
stop_provider
grep -E "closed|stopped|WARN|ERROR" "$provider_log" | sed 's/^/  provider| /' || true

if [ "$consumer_status" -ne 0 ]; then
  echo "Demo FAILED (consumer exit status $consumer_status)" >&2
  exit "$consumer_status"
fi
echo "Demo OK"
