package dev.etcdoperator.support;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.etcdoperator.core.events.EventCorrelator;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.jboss.logging.Logger;

/**
 * Records Kubernetes Events on the resources the operator manages. A repeated occurrence raises the count of the
 * Event already recorded (see {@link EventCorrelator}) with a merge patch; an Event that expired or was deleted
 * meanwhile is created again with its count. A failure to record is logged, never thrown.
 */
@ApplicationScoped
public class EventRecorder {
    public static final String COMPONENT = "etcd-operator";
    private static final Logger LOG = Logger.getLogger(EventRecorder.class);
    /** The longest name the API server takes for an Event (a DNS subdomain). */
    private static final int MAX_NAME = 253;

    private final KubernetesClient client;
    private final Clock clock;
    private final EventCorrelator correlator;

    @Inject
    public EventRecorder(KubernetesClient client, Clock clock) {
        this(client, clock, new EventCorrelator());
    }

    EventRecorder(KubernetesClient client, Clock clock, EventCorrelator correlator) {
        this.client = client;
        this.clock = clock;
        this.correlator = correlator;
    }

    public void normal(HasMetadata about, String reason, String message) {
        record(about, "Normal", reason, message);
    }

    public void warning(HasMetadata about, String reason, String message) {
        record(about, "Warning", reason, message);
    }

    private void record(HasMetadata about, String type, String reason, String message) {
        var metadata = about.getMetadata();
        var subject = new EventCorrelator.Subject(about.getKind(), metadata.getNamespace(), metadata.getName(),
                metadata.getUid());
        String newName = eventName(metadata.getName(), Long.toHexString(System.nanoTime()).toLowerCase(Locale.ROOT));
        EventCorrelator.Decision decision = correlator.observe(new EventCorrelator.Occurrence(subject, type, reason,
                dev.etcdoperator.core.status.Messages.bounded(message)), newName, clock.instant());
        try {
            if (decision.isNew()) {
                create(about, type, reason, decision);
            } else {
                bump(about, type, reason, decision);
            }
        } catch (KubernetesClientException e) {
            LOG.warnf("could not record event %s on %s/%s: %s", reason, about.getKind(), metadata.getName(),
                    e.getMessage());
        }
    }

    /**
     * {@code <object>.<suffix>} as a name the API server takes (a DNS subdomain of at most 253 characters): the
     * object's name is cut where the two would be longer, and its cut end made to end in a letter or digit.
     */
    static String eventName(String objectName, String suffix) {
        int room = MAX_NAME - suffix.length() - 1;
        String head = objectName.length() <= room ? objectName : objectName.substring(0, room);
        int end = head.length();
        while (end > 0 && !Character.isLetterOrDigit(head.charAt(end - 1))) {
            end--;
        }
        return (end == 0 ? "event" : head.substring(0, end)) + "." + suffix;
    }

    private void bump(HasMetadata about, String type, String reason, EventCorrelator.Decision decision) {
        Map<String, Object> patch = new LinkedHashMap<>();
        patch.put("count", decision.count());
        patch.put("lastTimestamp", timestamp(decision.last()));
        patch.put("message", decision.message());
        try {
            // through the resource, so that the client sends the patch without reading the Event first
            client.v1().events().inNamespace(about.getMetadata().getNamespace())
                    .resource(event(about, type, reason, decision))
                    .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(patch));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            // expired (the API server keeps Events for an hour) or deleted: the same Event again, with its count
            create(about, type, reason, decision);
        }
    }

    private void create(HasMetadata about, String type, String reason, EventCorrelator.Decision decision) {
        client.v1().events().inNamespace(about.getMetadata().getNamespace()).resource(event(about, type, reason,
                decision)).create();
    }

    static Event event(HasMetadata about, String type, String reason, EventCorrelator.Decision decision) {
        return new EventBuilder()
                .withNewMetadata()
                .withName(decision.name())
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
                .withMessage(decision.message())
                .withFirstTimestamp(timestamp(decision.first()))
                .withLastTimestamp(timestamp(decision.last()))
                .withCount(decision.count())
                .withNewSource().withComponent(COMPONENT).endSource()
                .withReportingComponent(COMPONENT)
                .build();
    }

    private static String timestamp(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
