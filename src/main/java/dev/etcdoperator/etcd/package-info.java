/**
 * The etcd I/O layer: {@link dev.etcdoperator.etcd.EtcdAdmin} is what the controllers call (members, status,
 * health, add/promote/remove one member, revision), {@link dev.etcdoperator.etcd.JetcdAdmin} does it with jetcd
 * 0.8.5's gRPC API against etcd 3.4+, over one channel per member, {@link dev.etcdoperator.etcd.EtcdClientFactory} is
 * the one place where jetcd clients and gRPC channels are made. Plain Java, no CDI: the controllers wire it through an
 * {@link dev.etcdoperator.etcd.EtcdAdminFactory}. Every call is bounded by a timeout; every failure is an
 * {@link dev.etcdoperator.etcd.EtcdAdminException}. Instances of {@code JetcdAdmin} are safe to share between threads.
 */
package dev.etcdoperator.etcd;
