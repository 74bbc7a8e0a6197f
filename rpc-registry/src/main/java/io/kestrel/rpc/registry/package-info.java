/** ZooKeeper registry through Apache Curator, and the embedded ZooKeeper launcher. */
package io.kestrel.rpc.registry;
