/**
 * The opt-in soak ({@code perf-test/run.sh soak}): a mixed load against a provider in its own JVM,
 * heap before and after in both JVMs, pending and in-flight calls that must end at 0. Start with
 * {@link io.kestrel.rpc.perf.soak.SoakMain}.
 */
package io.kestrel.rpc.perf.soak;
