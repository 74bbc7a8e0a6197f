/**
 * The runtime and its three faces: {@link io.kestrel.rpc.core.RpcRuntime} (lifecycle, export, refer, configuration),
 * the read-only {@link io.kestrel.rpc.core.RuntimeInspector} (one {@link io.kestrel.rpc.core.RuntimeSnapshot} of its
 * figures, views of services, references and connections, registry records, metadata) and the per-export
 * {@link io.kestrel.rpc.core.Exporter} handles (offline/online, unexport). Add-ons such as the web console attach
 * from outside as a {@link io.kestrel.rpc.core.RuntimeAddOn}. Cluster fault tolerance and load balancing sit on top
 * of the transport.
 */
package io.kestrel.rpc.core;
