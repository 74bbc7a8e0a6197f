/**
 * JMH micro-benchmarks of the serializations alone, on the demo bid model and the classic shapes
 * (a flat DTO, an order with 1 and with 100 lines). Start with {@link io.kestrel.rpc.perf.jmh.JmhMain}.
 */
package io.kestrel.rpc.perf.jmh;
