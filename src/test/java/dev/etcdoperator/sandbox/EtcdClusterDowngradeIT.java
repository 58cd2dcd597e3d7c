package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import dev.etcdoperator.api.v1beta2.Condition;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.api.v1beta2.EtcdClusterStatus;
import dev.etcdoperator.sandbox.support.ContinuousWriter;
import dev.etcdoperator.sandbox.support.Etcdctl;
import dev.etcdoperator.sandbox.support.SandboxClusters;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A downgrade from etcd 3.6 to 3.5 on the sandbox with real etcd, under a writer: refused until
 * {@code spec.allowDowngrade} asks for it, then enabled through etcd's downgrade API and rolled one member at a time
 * once each member rewrote its data in the 3.5 format.
 */
class EtcdClusterDowngradeIT {
    static final String NS = "default";
    static final String NAME = "down";
    static final String NEW = EtcdClusterIT.NEXT_MINOR;
    static final String OLD = EtcdClusterIT.FIRST;
    static Sandbox sandbox;
    static SandboxClusters clusters;

    @BeforeAll
    static void start() {
        sandbox = Sandbox.start(Sandbox.options().stateDir(Path.of("target", "sandbox-downgrade-it")).withoutS3()
                .operatorProperty("etcd-operator.cluster.reconcile-interval", "4s"));
        clusters = new SandboxClusters(sandbox.client(), NS);
    }

    @AfterAll
    static void stop() {
        if (sandbox != null) {
            sandbox.close();
        }
    }

    @Test
    void aDowngradeIsRefusedUntilAskedForThenRollsEveryMemberTo35WithEveryWriteKept() {
        clusters.create(NAME, 3, NEW);
        clusters.awaitConverged(NAME, 3);
        Set<String> before = pods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());

        setVersion(OLD, false);
        await().atMost(SandboxClusters.CONVERGE).untilAsserted(() -> {
            assertThat(clusters.status(NAME).getConditions())
                    .anySatisfy(c -> {
                        assertThat(c.getReason()).isEqualTo("Downgrade");
                        assertThat(c.getMessage()).contains("spec.allowDowngrade");
                    });
            assertThat(clusters.events(NAME)).extracting(Event::getReason).contains("Downgrade");
        });
        assertThat(pods()).allSatisfy(p -> assertThat(image(p)).endsWith(":v" + NEW));
        assertThat(pods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet())).isEqualTo(before);

        Set<String> written;
        try (ContinuousWriter writer = new ContinuousWriter("downgrade-", () -> clusters.endpointList(NAME))) {
            setVersion(OLD, true);
            await().atMost(SandboxClusters.CONVERGE).untilAsserted(() -> {
                assertThat(pods()).hasSize(3).allSatisfy(p -> assertThat(image(p)).endsWith(":v" + OLD));
                EtcdClusterStatus s = clusters.status(NAME);
                assertThat(s.getCurrentVersion()).isEqualTo(OLD);
                assertThat(s.getMemberDetails()).allSatisfy(m -> assertThat(m.getVersion()).isEqualTo(OLD));
            });
            clusters.awaitConverged(NAME, 3);
            writer.close();
            written = writer.acknowledged();
            assertThat(written).isNotEmpty();
        }
        String keys = new Etcdctl(clusters.endpoints(NAME)).run("get", "downgrade-", "--prefix", "--keys-only")
                .output();
        assertThat(Arrays.stream(keys.split("\n")).map(String::strip).collect(Collectors.toSet())).containsAll(written);
        assertThat(clusters.events(NAME)).extracting(Event::getReason)
                .containsOnlyOnce("DowngradeEnabled")
                .filteredOn("MemberDowngraded"::equals).hasSize(3);
        assertThat(clusters.status(NAME).getConditions()).extracting(Condition::getReason)
                .doesNotContain("Downgrade");
    }

    private static void setVersion(String version, boolean allowDowngrade) {
        Edits.edit(sandbox.client().resources(EtcdCluster.class).inNamespace(NS).withName(NAME), c -> {
            c.getSpec().setVersion(version);
            c.getSpec().setAllowDowngrade(allowDowngrade);
            return c;
        });
    }

    private static java.util.List<Pod> pods() {
        return clusters.pods(NAME);
    }

    private static String image(Pod p) {
        return p.getSpec().getContainers().get(0).getImage();
    }
}
