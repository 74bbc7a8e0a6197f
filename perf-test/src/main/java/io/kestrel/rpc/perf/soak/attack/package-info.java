/**
 * Attacks of the soak mode ({@code run.sh soak --attacks ...}): hostile or broken clients written
 * over raw sockets in the framework's native frame format, each on its own threads, run against the
 * soak provider beside the well-behaved mixed load. {@link io.kestrel.rpc.perf.soak.attack.Attacks}
 * starts and stops them; {@link io.kestrel.rpc.perf.soak.attack.AttackPlan} holds their sizes and the
 * provider limits they are meant to meet.
 */
package io.kestrel.rpc.perf.soak.attack;
