/**
 * The pure core: decisions without I/O. Nothing here imports fabric8 or the Java Operator SDK; it reads the
 * API's spec classes and returns values. Time comes in as a {@link java.time.Clock}.
 */
package dev.etcdoperator.core;
