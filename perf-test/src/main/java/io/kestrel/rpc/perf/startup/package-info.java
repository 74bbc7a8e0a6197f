/**
 * Cold-start time: a provider JVM to ready and a consumer JVM to its first call's return, each from
 * its own JVM start. Moved here from rpc-core's unit tests: speed is measured, not asserted, in CI.
 */
package io.kestrel.rpc.perf.startup;
