package dev.etcdoperator.k3s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.marcnuri.helm.Helm;
import dev.etcdoperator.api.v1beta2.EtcdBackup;
import dev.etcdoperator.api.v1beta2.EtcdCluster;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The cluster tier: the operator image installed with the Helm chart (two replicas, leader election, cluster-wide)
 * into a real k3s, then a 3-member cluster and a backup of it to an S3-compatible store. Needs Docker and an image;
 * see {@link K3sTier}.
 */
@ExtendWith(K3sTier.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class K3sOperatorIT {
    private static final DockerImageName K3S = DockerImageName.parse("rancher/k3s:v1.31.4-k3s1");
    private static final DockerImageName MINIO = DockerImageName.parse("minio/minio:RELEASE.2023-09-04T19-57-37Z");
    private static final String S3_USER = "k3s-tier-user";
    private static final String S3_PASSWORD = "k3s-tier-password";
    private static final String OPERATOR_NS = "etcd-system";
    private static final String NS = "demo";
    private static final String BUCKET = "etcd-backups";

    private static Network network;
    private static K3sContainer k3s;
    private static GenericContainer<?> s3;
    private static KubernetesClient client;

    @BeforeAll
    static void startClusterAndInstallTheChart() throws Exception {
        network = Network.newNetwork();
        k3s = new K3sContainer(K3S).withNetwork(network);
        s3 = new GenericContainer<>(MINIO).withNetwork(network).withExposedPorts(9000)
                .withEnv("MINIO_ROOT_USER", S3_USER).withEnv("MINIO_ROOT_PASSWORD", S3_PASSWORD)
                .withCommand("server", "/data")
                .waitingFor(Wait.forHttp("/minio/health/ready").forPort(9000));
        k3s.start();
        s3.start();
        try (S3Client store = store()) {
            store.createBucket(b -> b.bucket(BUCKET));
        }

        k3s.copyFileToContainer(MountableFile.forHostPath(System.getProperty(K3sTier.IMAGE_TAR)), "/tmp/operator.tar");
        ExecResult imported = k3s.execInContainer("k3s", "ctr", "-n", "k8s.io", "images", "import", "/tmp/operator.tar");
        assertThat(imported.getExitCode()).as(imported.getStderr()).isZero();

        String kubeconfig = k3s.getKubeConfigYaml();
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
        String image = System.getProperty(K3sTier.IMAGE);
        int colon = image.lastIndexOf(':');
        new Helm(Path.of("helm", "etcd-operator")).install().withName("etcd-operator").withNamespace(OPERATOR_NS)
                .createNamespace().withKubeConfigContents(kubeconfig)
                .set("image.repository", image.substring(0, colon)).set("image.tag", image.substring(colon + 1))
                .set("image.pullPolicy", "Never").set("replicas", 2).set("clusterWide", true)
                .waitReady().call();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                .create();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            for (Pod pod : client.pods().inNamespace(OPERATOR_NS).list().getItems()) {
                System.out.println("--- log of " + pod.getMetadata().getName() + "\n"
                        + client.pods().inNamespace(OPERATOR_NS).withName(pod.getMetadata().getName()).getLog());
            }
            client.close();
        }
        if (s3 != null) {
            s3.stop();
        }
        if (k3s != null) {
            k3s.stop();
        }
        if (network != null) {
            network.close();
        }
    }

    @Test
    @Order(1)
    void oneOfTheTwoOperatorPodsHoldsTheLease() {
        List<String> pods = client.pods().inNamespace(OPERATOR_NS).list().getItems().stream()
                .map(p -> p.getMetadata().getName()).toList();
        assertThat(pods).hasSize(2);
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
            Lease lease = client.leases().inNamespace(OPERATOR_NS).withName("etcd-operator-leader").get();
            assertThat(lease).isNotNull();
            assertThat(lease.getSpec().getHolderIdentity()).isIn(pods);
        });
    }

    @Test
    @Order(2)
    void aThreeMemberClusterComesUp() {
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdCluster
                metadata: {name: example, namespace: demo}
                spec: {size: 3}
                """, EtcdCluster.class)).create();
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            EtcdCluster cluster = client.resources(EtcdCluster.class).inNamespace(NS).withName("example").get();
            assertThat(cluster.getStatus()).isNotNull();
            assertThat(cluster.getStatus().getPhase()).isEqualTo("Running");
            assertThat(cluster.getStatus().getMembers().getReady()).hasSize(3);
        });
    }

    @Test
    @Order(3)
    void aBackupOfItLandsInTheStore() {
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("aws").endMetadata()
                .withStringData(Map.of(
                        "credentials", "[default]\naws_access_key_id = " + S3_USER + "\naws_secret_access_key = "
                                + S3_PASSWORD + "\n",
                        "config", "[default]\nregion = us-east-1\n"))
                .build()).create();
        String endpoint = "http://" + s3.getContainerInfo().getNetworkSettings().getNetworks().values().stream()
                .filter(n -> network.getId().equals(n.getNetworkID())).findFirst().orElseThrow().getIpAddress()
                + ":9000";
        client.resource(Serialization.unmarshal("""
                apiVersion: etcd.database.coreos.com/v1beta2
                kind: EtcdBackup
                metadata: {name: example-backup, namespace: demo}
                spec:
                  etcdCluster: {name: example}
                  storageType: S3
                  backupPolicy: {timeoutInSecond: 120}
                  s3: {path: %s/k3s/example.db, awsSecret: aws, endpoint: "%s", forcePathStyle: true}
                """.formatted(BUCKET, endpoint), EtcdBackup.class)).create();
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            EtcdBackup backup = client.resources(EtcdBackup.class).inNamespace(NS).withName("example-backup").get();
            assertThat(backup.getStatus()).isNotNull();
            assertThat(backup.getStatus().getSucceeded()).as(backup.getStatus().getReason()).isTrue();
        });
        try (S3Client store = store()) {
            long size = store.headObject(b -> b.bucket(BUCKET).key("k3s/example.db")).contentLength();
            assertThat(size).isPositive();
        }
    }

    private static S3Client store() {
        return S3Client.builder()
                .endpointOverride(URI.create("http://" + s3.getHost() + ":" + s3.getMappedPort(9000)))
                .forcePathStyle(true).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3_USER, S3_PASSWORD)))
                .build();
    }
}
