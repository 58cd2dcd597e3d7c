/**
 * The resource types users apply: {@code etcd.database.coreos.com/v1beta2}, field for field as the CoreOS
 * etcd-operator served them, plus optional additive fields.
 */
package dev.etcdoperator.api.v1beta2;
