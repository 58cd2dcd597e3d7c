/**
 * The pure core of the {@code etcdrestore} controller: from the phase recorded in the status and what is seen of
 * the cluster, {@link dev.etcdoperator.core.restore.RestorePlanner} picks the next action. Nothing is deleted before
 * the preflight passed and its result is recorded; every phase can be resumed after an operator restart.
 */
package dev.etcdoperator.core.restore;
