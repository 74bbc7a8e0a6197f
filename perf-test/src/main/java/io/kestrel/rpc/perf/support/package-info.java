/**
 * What every perf-test program shares: the benchmark service and its workloads, encodings and
 * serialization variants, the framework in direct mode, JVM probes (allocation, heap, JVM flags),
 * the command-line conventions, and small file, git and timing helpers.
 */
package io.kestrel.rpc.perf.support;
