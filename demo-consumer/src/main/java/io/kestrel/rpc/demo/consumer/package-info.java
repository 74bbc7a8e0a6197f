/** Demo consumer, wired with annotations. */
package io.kestrel.rpc.demo.consumer;
