/** Proxies, invokers, cluster fault tolerance, load balancing, and the export/refer bootstrap. */
package io.kestrel.rpc.core;
