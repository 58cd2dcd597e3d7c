package dev.etcdoperator.support;

/**
 * Told when a controller's resource has been deleted and the controller is done with it, so that what the
 * process holds for it (connections, metrics) can go. Called on the informer's delete event, after any
 * reconcile of that resource has ended; no finalizer is involved.
 */
public interface DeletedResourceListener {

    /** The name of the controller whose resources this listener is about (e.g. {@code etcdcluster}). */
    String controllerName();

    void deleted(String namespace, String name);
}
