/**
 * The pure core of the {@code etcdcluster} controller: an immutable {@link dev.etcdoperator.core.cluster.ClusterObservation}
 * goes in, {@link dev.etcdoperator.core.cluster.ClusterPlanner} picks the one next {@link dev.etcdoperator.core.cluster.Step},
 * and {@link dev.etcdoperator.core.cluster.ClusterStatusBuilder} writes what was seen and decided onto the status.
 * No I/O, no Kubernetes or etcd client.
 */
package dev.etcdoperator.core.cluster;
