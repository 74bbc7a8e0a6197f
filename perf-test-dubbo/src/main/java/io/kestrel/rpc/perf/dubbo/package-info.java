/**
 * Stock Apache Dubbo's side of perf-test: the benchmark service exported and called by Dubbo itself, on a class
 * path that holds no framework module. perf-test talks to it only through JDK types (the server JVM's line
 * protocol, the client through reflection on {@link io.kestrel.rpc.perf.dubbo.StockDubboClient}).
 */
package io.kestrel.rpc.perf.dubbo;
