package dev.etcdoperator.restore;

import jakarta.enterprise.context.ApplicationScoped;

import dev.etcdoperator.support.DeletedResourceListener;
import dev.etcdoperator.support.ForRestores;
import dev.etcdoperator.support.WorkerPool;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jboss.logging.Logger;

/**
 * A deleted EtcdRestore's metrics are removed, a preflight of it still waiting for a worker never runs, and its mark
 * on a template cluster is removed (its Secret goes with it by its owner reference). A mark left by a restore deleted
 * while the operator was down holds nothing either (see {@link TemplateLock}).
 */
@ApplicationScoped
public class RestoreDeletion implements DeletedResourceListener {
    private static final Logger LOG = Logger.getLogger(RestoreDeletion.class);
    private final RestoreMetrics metrics;
    private final WorkerPool workers;
    private final TemplateLock lock;

    public RestoreDeletion(RestoreMetrics metrics, @ForRestores WorkerPool workers, KubernetesClient client) {
        this.metrics = metrics;
        this.workers = workers;
        this.lock = new TemplateLock(client);
    }

    @Override
    public String controllerName() {
        return EtcdRestoreReconciler.NAME;
    }

    @Override
    public void deleted(String namespace, String name) {
        metrics.forget(namespace, name);
        workers.forget(EtcdRestoreReconciler.jobKey(namespace, name));
        try {
            lock.releaseAll(namespace, name);
        } catch (RuntimeException e) {
            LOG.warnf("EtcdRestore %s/%s was deleted; removing its mark from the template cluster failed (the mark"
                    + " holds nothing without its EtcdRestore): %s", namespace, name, e.getMessage());
        }
    }
}
