package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Records core/v1 Events about pods, as kubelet does, from the component "sandbox-kubelet". */
final class EventRecorder {
    private static final Logger LOG = Logger.getLogger(EventRecorder.class.getName());
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private final KubernetesClient client;

    EventRecorder(KubernetesClient client) {
        this.client = client;
    }

    void warning(Pod pod, String reason, String message) {
        String ns = pod.getMetadata().getNamespace();
        String now = Instant.now().toString();
        Event event = new EventBuilder().withNewMetadata().withNamespace(ns)
                .withName(pod.getMetadata().getName() + "." + Long.toHexString(System.currentTimeMillis())
                        + Long.toHexString(SEQUENCE.incrementAndGet()))
                .endMetadata()
                .withType("Warning").withReason(reason).withMessage(message)
                .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion("v1").withKind("Pod").withNamespace(ns)
                        .withName(pod.getMetadata().getName()).withUid(pod.getMetadata().getUid()).build())
                .withNewSource().withComponent("sandbox-kubelet").withHost("sandbox").endSource()
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1).build();
        LOG.warning(() -> "pod " + ns + "/" + pod.getMetadata().getName() + ": " + reason + ": " + message);
        try {
            client.v1().events().inNamespace(ns).resource(event).create();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot record event " + reason, e);
        }
    }
}
