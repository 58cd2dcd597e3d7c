package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.Step;
import dev.etcdoperator.support.EventRecorder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * A running member is restarted (to take new TLS material) only once the API server would take the pod the spec
 * makes now, asked in a dry run: a spec.pod changed since its pod was made may be refused, and the member would be
 * gone until a person fixed it.
 */
@EnableKubernetesMockClient
class ClusterActuatorRestartTest {
    private static final String PODS = "/api/v1/namespaces/prod/pods";
    KubernetesClient client;
    KubernetesMockServer server;

    private static final EtcdCluster CLUSTER = Serialization.unmarshal("""
            apiVersion: etcd.database.coreos.com/v1beta2
            kind: EtcdCluster
            metadata: {name: alpha, namespace: prod, uid: uid-alpha}
            spec:
              size: 3
              version: 3.5.17
              pod:
                resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}
            """, EtcdCluster.class);

    private void restart() {
        ClusterObservation o = new ClusterObservation("alpha", "prod", 3, "3.5.17", false, false, List.of(),
                Optional.empty(), Map.of(), "", "", false, Set.of(), null, false, Instant.EPOCH, null, null, false,
                List.of(), false);
        new ClusterActuator(client, new EventRecorder(client, Clock.systemUTC())).act(CLUSTER, o, Optional.empty(),
                Map.of(), new Step.RestartMember(7, "alpha-b", false, true), Optional.empty(), MemberTlsKeys.COREOS);
    }

    private void dryRunAnswers(int code, String message) {
        server.expect().post().withPath(PODS + "?dryRun=All").andReturn(code, new StatusBuilder().withCode(code)
                .withStatus("Failure").withMessage(message).build()).once();
    }

    private List<String> requests() throws InterruptedException {
        List<String> seen = new java.util.ArrayList<>();
        for (RecordedRequest r; (r = server.takeRequest(100, java.util.concurrent.TimeUnit.MILLISECONDS)) != null;) {
            seen.add(r.getMethod() + " " + r.getPath());
        }
        return seen;
    }

    @Test
    void aPodTheApiServerWouldRefuseLeavesTheMemberRunning() throws Exception {
        dryRunAnswers(422, "Pod \"alpha-b\" is invalid: spec.containers[0].resources.requests: Invalid value:"
                + " \"2Gi\": must be less than or equal to memory limit of 1Gi");
        assertThatThrownBy(this::restart).isInstanceOfSatisfying(KubernetesClientException.class,
                e -> assertThat(e.getCode()).isEqualTo(422));
        assertThat(requests()).as("no pod deleted").noneMatch(r -> r.startsWith("DELETE"))
                .anyMatch(r -> r.equals("POST " + PODS + "?dryRun=All"));
    }

    @Test
    void aPodTheApiServerWouldTakeUnderItsTakenNameIsRestarted() throws Exception {
        dryRunAnswers(409, "pods \"alpha-b\" already exists");
        server.expect().delete().withPath(PODS + "/alpha-b").andReturn(200, new StatusBuilder()
                .withStatus("Success").build()).once();
        restart();
        assertThat(requests()).contains("DELETE " + PODS + "/alpha-b");
    }

    /**
     * A full quota counts the running pod: the new one fits in its place only if it asks no more (here the running
     * pod is the very pod the spec makes, or one that asked less memory before the spec raised it).
     */
    @Test
    void aFullQuotaPassesOnlyForAPodThatAsksNoMoreThanTheRunningOne() throws Exception {
        for (boolean runningAskedLess : new boolean[] {false, true}) {
            java.util.concurrent.atomic.AtomicReference<String> posted = new java.util.concurrent.atomic.AtomicReference<>();
            server.expect().post().withPath(PODS + "?dryRun=All").andReply(403, request -> {
                posted.set(request.getUtf8Body());
                return new StatusBuilder().withCode(403).withStatus("Failure").withMessage("pods \"alpha-b\" is"
                        + " forbidden: exceeded quota: q, requested: requests.memory=2Gi").build();
            }).once();
            server.expect().get().withPath(PODS + "/alpha-b").andReply(200, request -> {
                io.fabric8.kubernetes.api.model.Pod running = Serialization.unmarshal(posted.get(),
                        io.fabric8.kubernetes.api.model.Pod.class);
                if (runningAskedLess) {
                    running.getSpec().getContainers().forEach(c -> c.getResources().getRequests().put("memory",
                            new io.fabric8.kubernetes.api.model.Quantity("1Gi")));
                }
                return running;
            }).once();
            server.expect().delete().withPath(PODS + "/alpha-b").andReturn(200, new StatusBuilder()
                    .withStatus("Success").build()).once();
            if (runningAskedLess) {
                assertThatThrownBy(this::restart).isInstanceOfSatisfying(KubernetesClientException.class,
                        e -> assertThat(e.getCode()).isEqualTo(403));
                assertThat(requests()).noneMatch(r -> r.startsWith("DELETE"));
            } else {
                restart();
                assertThat(requests()).contains("DELETE " + PODS + "/alpha-b");
            }
        }
    }
}
