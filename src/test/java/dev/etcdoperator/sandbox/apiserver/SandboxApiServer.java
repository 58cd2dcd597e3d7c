package dev.etcdoperator.sandbox.apiserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

/**
 * The sandbox's API server: the fabric8 mock server in CRUD mode behind {@link SandboxDispatcher}, with the
 * project's CRDs installed, the {@code default} namespace created, and garbage collection by owner references.
 */
public final class SandboxApiServer implements AutoCloseable {
    private final KubernetesMockServer server;
    private final SandboxDispatcher dispatcher;
    private final AtomicReference<AdmissionControl> admission;
    private final KubernetesClient client;
    private final GarbageCollector collector;
    private final String url;

    private SandboxApiServer(int port, AdmissionControl admissionControl) {
        java.util.logging.Logger.getLogger("io.fabric8.mockwebserver").setLevel(java.util.logging.Level.WARNING);
        Discovery discovery = new Discovery();
        admission = new AtomicReference<>(admissionControl);
        AtomicReference<String> address = new AtomicReference<>("127.0.0.1:0");
        dispatcher = new SandboxDispatcher(discovery, new TableView(Clock.systemUTC()), admission::get, address::get);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init(InetAddress.getLoopbackAddress(), port);
        address.set("127.0.0.1:" + server.getPort());
        url = "http://127.0.0.1:" + server.getPort();
        client = new KubernetesClientBuilder().withConfig(clientConfig()).build();
        collector = new GarbageCollector(client, discovery);
    }

    /** Starts on {@code port} (0 for any free port) with the CRDs found in {@code crdDirectory}. */
    public static SandboxApiServer start(int port, Path crdDirectory, AdmissionControl admission) {
        SandboxApiServer api = new SandboxApiServer(port, admission);
        api.client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("default").endMetadata()
                .build()).create();
        for (CustomResourceDefinition crd : readCrds(crdDirectory)) {
            api.client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
        api.collector.start();
        return api;
    }

    static List<CustomResourceDefinition> readCrds(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml")).sorted()
                    .map(f -> {
                        try {
                            return Serialization.unmarshal(Files.readString(f), CustomResourceDefinition.class);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read CRDs from " + directory, e);
        }
    }

    /** Switches admission on or off at run time (off stands for a cluster where schema validation is bypassed). */
    public void setAdmission(AdmissionControl control) {
        admission.set(control);
    }

    public String url() {
        return url;
    }

    public KubernetesClient client() {
        return client;
    }

    public Config clientConfig() {
        return new ConfigBuilder(Config.empty()).withMasterUrl(url).withNamespace("default").withTrustCerts(true)
                .withRequestTimeout(30_000).build();
    }

    /** A kubeconfig for kubectl and for the operator. */
    public String kubeconfig() {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: sandbox
                  cluster:
                    server: %s
                contexts:
                - name: sandbox
                  context:
                    cluster: sandbox
                    namespace: default
                    user: sandbox
                current-context: sandbox
                users:
                - name: sandbox
                  user:
                    token: sandbox
                """.formatted(url);
    }

    /** Registers CRD content directly (for tests that bring their own definitions). */
    void registerCrd(JsonNode crd) {
        dispatcher.registerCrd(crd);
    }

    public int sweepGarbage() {
        return collector.sweep();
    }

    @Override
    public void close() {
        collector.close();
        client.close();
        server.destroy();
    }
}
