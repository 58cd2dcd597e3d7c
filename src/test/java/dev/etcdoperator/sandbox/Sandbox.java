package dev.etcdoperator.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.etcdoperator.sandbox.controlplane.ControlPlane;
import dev.etcdoperator.sandbox.pods.ClusterDns;
import dev.etcdoperator.sandbox.pods.EtcdReleases;
import dev.etcdoperator.sandbox.pods.PodRuntime;
import dev.etcdoperator.sandbox.pods.RuntimeSettings;
import dev.etcdoperator.sandbox.s3.S3Server;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.awaitility.Awaitility;

/**
 * A Kubernetes cluster on one machine with the operator running on it: a real control plane (kube-apiserver,
 * kube-controller-manager and kube-scheduler over etcd; see {@link ControlPlane}) with the CRDs of {@code crds/}
 * applied as shipped, the sandbox's node agent (a Node whose pods run as local processes) and cluster DNS, the
 * packaged operator as a child process running as the ServiceAccount and with the RBAC of the Helm chart and, on
 * request, an S3-compatible server with a bucket and a credentials Secret. Closing it stops everything it started.
 */
public final class Sandbox implements AutoCloseable {
    /** The bucket created on the sandbox's S3 server. */
    public static final String S3_BUCKET = "etcd-backups";
    /** The Secret in namespace {@code default} with the AWS files ({@code credentials}, {@code config}) for it. */
    public static final String S3_SECRET = "aws";

    private final Options options;
    /** The name of the node agent's Node. */
    public static final String NODE = "sandbox-node";

    private final ControlPlane api;
    private final KubernetesClient client;
    private final OperatorInstall install;
    /** The chart's JVM options with the image's paths made the packaged operator's (its class-data archive made). */
    private final List<String> operatorImageOptions;
    private final ClusterDns dns;
    private final PodRuntime pods;
    private final Path kubeconfig;
    private final String firstPodIp;
    private final LoopbackRange range;
    private OperatorProcess operator;
    private S3Server s3;

    /** How to start the sandbox. */
    public static final class Options {
        Path stateDir = Path.of("target", "sandbox");
        Path crds = Path.of("crds");
        Path operatorJar = Path.of(System.getProperty("operator.jar",
                Path.of("target", "quarkus-app", "quarkus-run.jar").toString()));
        int apiPort;
        boolean operator = true;
        String chartValues = "clusterWide: true\n";
        String firstPodIp;
        boolean s3;
        String s3Address;
        int s3Port;
        final Map<String, String> operatorProperties = new LinkedHashMap<>();
        final List<String> operatorJvmOptions = new ArrayList<>();

        public Options stateDir(Path dir) {
            stateDir = dir;
            return this;
        }

        public Options apiPort(int port) {
            apiPort = port;
            return this;
        }

        /** Values (YAML) the Helm chart is rendered with for the operator's RBAC and environment. */
        public Options chartValues(String values) {
            chartValues = values;
            return this;
        }

        /**
         * The first loopback address handed to pods (default 127.1.0.2). Sandboxes that may run at the same time
         * on one machine need ranges of their own: members of each listen on ports 2379/2380 of their address.
         */
        public Options firstPodIp(String ip) {
            firstPodIp = ip;
            return this;
        }

        /**
         * An S3 server (MinIO) on a free port of the address just below the first pod address (127.N.0.1 by
         * default), with the bucket {@value Sandbox#S3_BUCKET} and the Secret {@value Sandbox#S3_SECRET}.
         */
        public Options withS3() {
            s3 = true;
            return this;
        }

        /** An S3 server as with {@link #withS3()}, on the given loopback address and port (0: a free one). */
        public Options withS3(String address, int port) {
            s3 = true;
            s3Address = address;
            s3Port = port;
            return this;
        }

        public Options withoutS3() {
            s3 = false;
            return this;
        }

        public Options withoutOperator() {
            operator = false;
            return this;
        }

        public Options operatorProperty(String key, String value) {
            operatorProperties.put(key, value);
            return this;
        }

        /**
         * A JVM option for the operator process (e.g. {@code -Xmx128m}, {@code -Xlog:gc:file=...}), added after the
         * chart's (see {@link ImageJavaOptions}) and the sandbox's system properties, so that it wins over them.
         */
        public Options operatorJvmOption(String option) {
            operatorJvmOptions.add(option);
            return this;
        }
    }

    private Sandbox(Options options) throws IOException {
        this.options = options;
        deleteRecursively(options.stateDir);
        Files.createDirectories(options.stateDir);
        kubeconfig = options.stateDir.resolve("kubeconfig").toAbsolutePath();
        api = ControlPlane.start(options.stateDir.resolve("control-plane"), options.apiPort);
        client = api.client();
        dns = new ClusterDns(client, options.stateDir.resolve("dns").toAbsolutePath());
        // each sandbox takes its own 127.N.0.0/16 unless told otherwise, so that two of them on one machine never
        // share an address
        range = options.firstPodIp != null ? null : LoopbackRange.claim();
        firstPodIp = options.firstPodIp != null ? options.firstPodIp : range.firstPodIp();
        pods = new PodRuntime(client, options.stateDir.resolve("runtime").toAbsolutePath(), dns,
                RuntimeSettings.defaults().withFirstIp(firstPodIp), EtcdReleases.standard());
        for (CustomResourceDefinition crd : readCrds(options.crds)) {
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
        for (CustomResourceDefinition crd : readCrds(options.crds)) {
            client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
                    .waitUntilCondition(SandboxCrds::established, 60, java.util.concurrent.TimeUnit.SECONDS);
        }
        install = OperatorInstall.apply(client, options.chartValues);
        // the image makes its class-data archive when it is built: here before the operator starts, not as it starts
        operatorImageOptions = Files.isRegularFile(options.operatorJar)
                ? ImageClassDataArchive.prepare(install.jvmOptions(), options.operatorJar) : install.jvmOptions();
    }

    public static Sandbox start(Options options) {
        Sandbox sandbox = null;
        try {
            sandbox = new Sandbox(options);
            sandbox.dns.start();
            sandbox.pods.startAsNode(NODE);
            if (options.s3) {
                sandbox.startS3();
            }
            Path pending = options.stateDir.resolve("kubeconfig.pending");
            Files.writeString(pending, sandbox.api.kubeconfig("sandbox-admin", sandbox.api.adminToken(), "default"));
            if (options.operator) {
                sandbox.startOperator();
            }
            Files.move(pending, sandbox.kubeconfig, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return sandbox;
        } catch (IOException | RuntimeException e) {
            if (sandbox != null) {
                sandbox.close();
            }
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    public static Options options() {
        return new Options();
    }

    /** Starts the operator (again, after {@link #stopOperator()} or a kill) and waits until it is ready. */
    public OperatorProcess startOperator() {
        operator = new OperatorProcess(options.operatorJar.toAbsolutePath(), operatorKubeconfig(), install.env(),
                dns.hostsFile("default"), options.stateDir.resolve("operator.log").toAbsolutePath(),
                operatorImageOptions, options.operatorJvmOptions, options.operatorProperties)
                .start(Duration.ofSeconds(90));
        return operator;
    }

    /**
     * Runs {@code action} while the API server checks no schema of the project's CRDs (each CRD's schema replaced
     * by one that keeps any field), as on a cluster whose CRDs are older than the operator or where validation was
     * bypassed; the CRDs of {@code crds/} are put back afterwards. The action is retried while the API server still
     * applies the old schema (422).
     */
    public void withoutSchemaChecks(Runnable action) {
        List<CustomResourceDefinition> shipped = readCrds(options.crds);
        var crds = client.apiextensions().v1().customResourceDefinitions();
        try {
            for (CustomResourceDefinition crd : shipped) {
                Edits.edit(crds.withName(crd.getMetadata().getName()), SandboxCrds::withoutSchema);
            }
            // the whole action runs inside this wait (it may wait on the operator itself); only a 422, the old schema
            // still applied for a moment after the CRD update, makes it start again
            Awaitility.await("the action to pass without the CRDs' schemas").atMost(Duration.ofMinutes(5))
                    .pollInterval(Duration.ofMillis(200)).until(() -> {
                        try {
                            action.run();
                            return true;
                        } catch (KubernetesClientException e) {
                            if (e.getCode() == 422) {
                                return false;
                            }
                            throw e;
                        }
                    });
        } finally {
            for (CustomResourceDefinition crd : shipped) {
                Edits.edit(crds.withName(crd.getMetadata().getName()), current -> {
                    current.setSpec(crd.getSpec());
                    return current;
                });
            }
        }
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

    private void startS3() {
        String address = options.s3Address != null ? options.s3Address : addressBelow(firstPodIp);
        s3 = S3Server.start(S3Server.Settings.in(options.stateDir.resolve("s3").toAbsolutePath())
                .withAddress(address).withPort(options.s3Port).withBuckets(S3_BUCKET));
        client.secrets().inNamespace("default").resource(new SecretBuilder()
                .withNewMetadata().withName(S3_SECRET).withNamespace("default").endMetadata()
                .withType("Opaque")
                .addToData("credentials", base64(s3.credentialsFile()))
                .addToData("config", base64(s3.configFile()))
                .build()).create();
    }

    /** The pods take addresses from the first one upward, so the one just below is free for the S3 server. */
    private static String addressBelow(String firstPodIp) {
        String[] octets = firstPodIp.split("\\.");
        int last = Integer.parseInt(octets[3]);
        if (last < 2) {
            throw new IllegalArgumentException("no address below the first pod address " + firstPodIp
                    + " for the S3 server; give one with Options.withS3(address, port)");
        }
        return octets[0] + "." + octets[1] + "." + octets[2] + "." + (last - 1);
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /**
     * Another packaged Quarkus application ({@code quarkus-run.jar}), to be started as the operator is: the chart's
     * JVM options (with a class-data archive made for it now, as the image makes the operator's), environment and
     * identity, logging to {@code logName} in the state directory. The caller starts and stops it. Benchmarks use it
     * to run a baseline application beside the operator.
     */
    public OperatorProcess application(Path jar, String logName) {
        return new OperatorProcess(jar.toAbsolutePath(), operatorKubeconfig(), install.env(), dns.hostsFile("default"),
                options.stateDir.resolve(logName).toAbsolutePath(),
                ImageClassDataArchive.prepare(install.jvmOptions(), jar), options.operatorJvmOptions, Map.of());
    }

    /** Writes the kubeconfig of the operator's ServiceAccount, with a new token, and returns its path. */
    private Path operatorKubeconfig() {
        Path kubeconfig = options.stateDir.resolve("operator.kubeconfig").toAbsolutePath();
        try {
            Files.writeString(kubeconfig, api.kubeconfig("system:serviceaccount:" + install.namespace() + ":"
                    + install.serviceAccount(), api.tokenFor(install.namespace(), install.serviceAccount(),
                            Duration.ofHours(24)), install.namespace()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return kubeconfig;
    }

    public void stopOperator() {
        if (operator != null) {
            operator.close();
        }
    }

    public OperatorProcess operator() {
        return operator;
    }

    /** A client acting as the cluster's administrator. */
    public KubernetesClient client() {
        return client;
    }

    public ControlPlane api() {
        return api;
    }

    /** Creates a namespace unless it exists. */
    public void namespace(String name) {
        if (client.namespaces().withName(name).get() == null) {
            client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                    .withName(name).endMetadata().build()).create();
        }
    }

    /** The namespace, ServiceAccount and environment the operator runs with, from the Helm chart. */
    public String operatorNamespace() {
        return install.namespace();
    }

    public String operatorServiceAccount() {
        return install.serviceAccount();
    }

    public PodRuntime pods() {
        return pods;
    }

    /** The S3 server; null unless the sandbox was started {@link Options#withS3() with one}. */
    public S3Server s3() {
        return s3;
    }

    public ClusterDns dns() {
        return dns;
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    public Path stateDir() {
        return options.stateDir;
    }

    @Override
    public void close() {
        stopOperator();
        pods.close();
        if (s3 != null) {
            s3.close();
        }
        dns.close();
        if (api != null) {
            api.close();
        }
        if (range != null) {
            range.close();
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
