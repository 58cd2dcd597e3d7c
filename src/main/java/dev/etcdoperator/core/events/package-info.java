/**
 * Event aggregation: which Kubernetes Event an occurrence goes to, a new one or the count of one already recorded
 * ({@link dev.etcdoperator.core.events.EventCorrelator}). No I/O.
 */
package dev.etcdoperator.core.events;
