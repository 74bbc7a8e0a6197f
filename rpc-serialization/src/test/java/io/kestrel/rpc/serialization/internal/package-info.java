/** Tests of the shared serialization helpers. */
package io.kestrel.rpc.serialization.internal;
