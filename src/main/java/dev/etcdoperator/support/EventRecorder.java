package dev.etcdoperator.support;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jboss.logging.Logger;

/** Records Kubernetes Events on the resources the operator manages. A failure to record is logged, never thrown. */
@ApplicationScoped
public class EventRecorder {
    public static final String COMPONENT = "etcd-operator";
    private static final Logger LOG = Logger.getLogger(EventRecorder.class);

    private final KubernetesClient client;

    public EventRecorder(KubernetesClient client) {
        this.client = client;
    }

    public void normal(HasMetadata about, String reason, String message) {
        record(about, "Normal", reason, message);
    }

    public void warning(HasMetadata about, String reason, String message) {
        record(about, "Warning", reason, message);
    }

    private void record(HasMetadata about, String type, String reason, String message) {
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String name = about.getMetadata().getName() + "."
                + Long.toHexString(System.nanoTime()).toLowerCase(Locale.ROOT);
        var event = new EventBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(about.getMetadata().getNamespace())
                .endMetadata()
                .withInvolvedObject(new ObjectReferenceBuilder()
                        .withApiVersion(about.getApiVersion())
                        .withKind(about.getKind())
                        .withName(about.getMetadata().getName())
                        .withNamespace(about.getMetadata().getNamespace())
                        .withUid(about.getMetadata().getUid())
                        .withResourceVersion(about.getMetadata().getResourceVersion())
                        .build())
                .withType(type)
                .withReason(reason)
                .withMessage(message)
                .withFirstTimestamp(now)
                .withLastTimestamp(now)
                .withCount(1)
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT)
                .build();
        try {
            client.v1().events().inNamespace(about.getMetadata().getNamespace()).resource(event).create();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not record event %s on %s/%s: %s", reason, about.getKind(),
                    about.getMetadata().getName(), e.getMessage());
        }
    }
}
