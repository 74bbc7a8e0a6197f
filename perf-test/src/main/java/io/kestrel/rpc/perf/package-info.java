/** The 10-concurrent-client echo benchmark against REST baselines and raw Netty, and the JMH serializer suite. */
package io.kestrel.rpc.perf;
