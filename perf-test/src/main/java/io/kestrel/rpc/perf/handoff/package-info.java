/**
 * What handing a call from one thread to another costs on this machine, without network or serialization:
 * start with {@link io.kestrel.rpc.perf.handoff.HandoffCostMain} ({@code perf-test/run.sh handoff}).
 */
package io.kestrel.rpc.perf.handoff;
