/** perf-test's benchmark service interface, as the stock Dubbo systems see it (same name as perf-test's). */
package io.kestrel.rpc.perf.support;
