package dev.etcdoperator.sandbox.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.sandbox.support.FreePorts;
import dev.etcdoperator.sandbox.support.TrustAllTls;
import org.awaitility.Awaitility;

import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * A real Kubernetes control plane on loopback: etcd (built from etcd's Go modules) as its store, kube-apiserver
 * with RBAC authorization and ServiceAccount tokens, kube-controller-manager with the controllers an operator
 * relies on, and kube-scheduler; all built from the published Kubernetes Go modules (see {@link Parts}). There is
 * no kubelet: the sandbox's node agent registers a Node and runs the pods bound to it.
 *
 * <p>The administrator (group {@code system:masters}) authenticates with a static token; everyone else with
 * ServiceAccount tokens from the TokenRequest API ({@link #tokenFor}). The API server serves HTTPS with a
 * certificate it generates itself, which clients here do not verify.
 */
public final class ControlPlane implements AutoCloseable {
    /** Controllers of kube-controller-manager the sandbox runs (no node lifecycle: the node agent is always up). */
    static final String CONTROLLERS = String.join(",", "garbage-collector-controller", "namespace-controller",
            "endpoints-controller", "endpointslice-controller", "endpointslice-mirroring-controller",
            "serviceaccount-controller", "persistentvolume-binder-controller", "persistentvolume-protection-controller",
            "persistentvolumeclaim-protection-controller", "root-ca-certificate-publisher-controller",
            "replicaset-controller", "deployment-controller", "job-controller", "disruption-controller",
            "ttl-after-finished-controller");
    /** Services get virtual addresses from a loopback range that no pod uses; nothing listens on them. */
    static final String SERVICE_RANGE = "127.254.0.0/16";

    private final Path dir;
    private final String adminToken;
    private final List<Daemon> daemons = new ArrayList<>();
    private Daemon etcd;
    private Daemon apiServer;
    private List<String> apiServerCommand;
    private String url;
    private KubernetesClient client;

    private final int port;

    private ControlPlane(Path dir, int port) {
        this.dir = dir.toAbsolutePath();
        if (port != 0) {
            FreePorts.reserve(port);
        }
        this.port = port == 0 ? FreePorts.onLoopback() : port;
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        this.adminToken = HexFormat.of().formatHex(secret);
    }

    /**
     * Starts the control plane with a fresh state under {@code dir} (whatever was there is deleted), the API server on {@code port} of 127.0.0.1 (0:
     * a free one), and waits until the API serves.
     */
    public static ControlPlane start(Path dir, int port) {
        ControlPlane plane = new ControlPlane(dir, port);
        try {
            plane.startAll();
            return plane;
        } catch (RuntimeException e) {
            plane.close();
            throw e;
        }
    }

    private void startAll() {
        Path etcdBin = Parts.bin(Parts.ETCD_36);
        Path kubeBin = Parts.bin(Parts.KUBE);
        try {
            deleteRecursively(dir);
            Files.createDirectories(dir);
            int etcdClient = FreePorts.onLoopback();
            int etcdPeer = FreePorts.onLoopback();
            String etcdUrl = "http://127.0.0.1:" + etcdClient;
            etcd = start("etcd", List.of(etcdBin.resolve("etcd").toString(), "--name", "control-plane",
                    "--data-dir", dir.resolve("etcd").toString(),
                    "--listen-client-urls", etcdUrl, "--advertise-client-urls", etcdUrl,
                    "--listen-peer-urls", "http://127.0.0.1:" + etcdPeer,
                    "--initial-advertise-peer-urls", "http://127.0.0.1:" + etcdPeer,
                    "--initial-cluster", "control-plane=http://127.0.0.1:" + etcdPeer,
                    "--logger=zap", "--log-level=warn", "--unsafe-no-fsync"));

            ServiceAccountKeys keys = ServiceAccountKeys.writeTo(dir.resolve("pki"));
            Path tokens = dir.resolve("pki").resolve("tokens.csv");
            Files.writeString(tokens, adminToken + ",sandbox-admin,sandbox-admin,\"system:masters\"\n");
            url = "https://127.0.0.1:" + port;
            apiServerCommand = List.of(kubeBin.resolve("kube-apiserver").toString(),
                    "--etcd-servers=" + etcdUrl,
                    "--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port=" + port,
                    "--cert-dir=" + dir.resolve("pki").resolve("serving"),
                    "--token-auth-file=" + tokens,
                    "--authorization-mode=RBAC",
                    // on top of the default plugins, as OpenShift and hardened clusters run it: an owner reference
                    // that blocks its owner's deletion needs update on the owner's finalizers
                    "--enable-admission-plugins=OwnerReferencesPermissionEnforcement",
                    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                    "--service-account-key-file=" + keys.publicKey(),
                    "--service-account-signing-key-file=" + keys.privateKey(),
                    "--service-cluster-ip-range=" + SERVICE_RANGE,
                    "--allow-privileged=true",
                    // the "kubernetes" Service's endpoints would be the advertise address, which may not be loopback
                    "--endpoint-reconciler-type=none",
                    "--profiling=false",
                    "--v=1");
            apiServer = start("kube-apiserver", apiServerCommand);
            awaitApiServer(Duration.ofSeconds(120));

            Path kubeconfig = dir.resolve("admin.kubeconfig");
            Files.writeString(kubeconfig, kubeconfig("sandbox-admin", adminToken, "default"));
            start("kube-controller-manager", List.of(kubeBin.resolve("kube-controller-manager").toString(),
                    "--kubeconfig=" + kubeconfig, "--authentication-kubeconfig=" + kubeconfig,
                    "--authorization-kubeconfig=" + kubeconfig,
                    "--controllers=" + CONTROLLERS, "--leader-elect=false", "--bind-address=127.0.0.1",
                    "--secure-port=0", "--root-ca-file=" + dir.resolve("pki").resolve("serving")
                            .resolve("apiserver.crt"),
                    "--service-cluster-ip-range=" + SERVICE_RANGE, "--v=1"));
            start("kube-scheduler", List.of(kubeBin.resolve("kube-scheduler").toString(),
                    "--kubeconfig=" + kubeconfig, "--authentication-kubeconfig=" + kubeconfig,
                    "--authorization-kubeconfig=" + kubeconfig, "--leader-elect=false",
                    "--bind-address=127.0.0.1", "--secure-port=0", "--v=1"));
            client = new KubernetesClientBuilder().withConfig(clientConfig(adminToken, "default")).build();
            Awaitility.await("the default ServiceAccount (kube-controller-manager)").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        checkAlive();
                        return client.serviceAccounts().inNamespace("default").withName("default").get() != null;
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Daemon start(String name, List<String> command) {
        Daemon daemon = Daemon.start(name, command, Map.of(), dir.resolve("logs").resolve(name + ".log"));
        daemons.add(daemon);
        return daemon;
    }

    private void awaitApiServer(Duration timeout) {
        HttpClient http = insecureHttp();
        Awaitility.await("kube-apiserver to be ready (log: " + apiServer.log() + ")").atMost(timeout)
                .pollInterval(Duration.ofMillis(200)).ignoreExceptionsInstanceOf(IOException.class).until(() -> {
                    etcd.checkAlive();
                    apiServer.checkAlive();
                    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url + "/readyz"))
                            .header("Authorization", "Bearer " + adminToken).timeout(Duration.ofSeconds(5)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    return response.statusCode() == 200;
                });
    }

    /**
     * Kills kube-apiserver with SIGKILL, as a crash would, starts it again on the same port and store, and waits
     * until it serves. Watches of every client break and resume.
     */
    public void restartApiServer() {
        apiServer.kill();
        daemons.remove(apiServer);
        apiServer = start("kube-apiserver", apiServerCommand);
        awaitApiServer(Duration.ofSeconds(120));
    }

    /** Fails, with the end of its log, when a program of the control plane has exited. */
    public void checkAlive() {
        daemons.forEach(Daemon::checkAlive);
    }

    public String url() {
        return url;
    }

    /** A client acting as the cluster's administrator. */
    public KubernetesClient client() {
        return client;
    }

    public Config clientConfig(String token, String namespace) {
        return new ConfigBuilder(Config.empty()).withMasterUrl(url).withOauthToken(token).withNamespace(namespace)
                .withTrustCerts(true).withDisableHostnameVerification(true).withRequestTimeout(30_000).build();
    }

    /** The administrator's token (group system:masters). */
    public String adminToken() {
        return adminToken;
    }

    /** A token of a ServiceAccount from the TokenRequest API, valid for {@code validity}. */
    public String tokenFor(String namespace, String serviceAccount, Duration validity) {
        TokenRequest request = new TokenRequestBuilder().withNewSpec()
                .withExpirationSeconds(validity.toSeconds()).endSpec().build();
        return client.serviceAccounts().inNamespace(namespace).withName(serviceAccount).tokenRequest(request)
                .getStatus().getToken();
    }

    /** A kubeconfig for this API server as the given user. */
    public String kubeconfig(String user, String token, String namespace) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: sandbox
                  cluster:
                    server: %s
                    insecure-skip-tls-verify: true
                contexts:
                - name: sandbox
                  context:
                    cluster: sandbox
                    namespace: %s
                    user: %s
                current-context: sandbox
                users:
                - name: %s
                  user:
                    token: %s
                """.formatted(url, namespace, user, user, token);
    }

    /** The directory of the control plane's logs. */
    public Path logs() {
        return dir.resolve("logs");
    }

    public Path apiServerLog() {
        return apiServer.log();
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
        for (int i = daemons.size() - 1; i >= 0; i--) {
            daemons.get(i).close();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static HttpClient insecureHttp() {
        return HttpClient.newBuilder().sslContext(TrustAllTls.context()).connectTimeout(Duration.ofSeconds(5)).build();
    }
}
