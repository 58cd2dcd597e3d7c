package dev.etcdoperator.sandbox;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import dev.etcdoperator.sandbox.controlplane.Parts;

import dev.etcdoperator.sandbox.s3.S3Server;

/**
 * {@code ./mvnw -Psandbox package -DskipTests}: the packaged operator on the sandbox, in the foreground, until
 * Ctrl-C, a SIGTERM, or the end of the process that started it (Maven). Options as system properties:
 * {@code sandbox.apiPort} (default 0, any free port), {@code sandbox.s3} (default true: the S3 server, bucket and Secret
 * the examples in docs/examples use), {@code sandbox.s3Address} (default 127.0.0.1) and {@code sandbox.s3Port}
 * (default 9090, as in the examples; 0 for any free port), {@code sandbox.stateDir} (default target/sandbox).
 */
public final class SandboxMain {
    private SandboxMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Sandbox.Options options = Sandbox.options()
                .apiPort(Integer.getInteger("sandbox.apiPort", 0));
        String stateDir = System.getProperty("sandbox.stateDir");
        if (stateDir != null) {
            options.stateDir(java.nio.file.Path.of(stateDir));
        }
        boolean s3 = Boolean.parseBoolean(System.getProperty("sandbox.s3", "true"));
        if (s3) {
            options.withS3(System.getProperty("sandbox.s3Address", "127.0.0.1"),
                    Integer.getInteger("sandbox.s3Port", 9090));
        }
        exitWithParent();
        System.out.println("Starting the sandbox: building or finding its parts (kube-apiserver and its controllers,"
                + " etcd" + (s3 ? ", the S3 server" : "") + "), then the control plane, the node agent, cluster DNS"
                + (s3 ? ", the S3 server" : "") + " and the packaged operator...");
        AtomicReference<Sandbox> started = new AtomicReference<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Sandbox running = started.get();
            if (running != null) {
                System.out.println("Stopping the sandbox and every process it started...");
                running.close();
            }
            stopped.countDown();
        }, "sandbox-shutdown"));
        Sandbox sandbox = Sandbox.start(options);
        started.set(sandbox);
        System.out.printf("""

                The sandbox is ready.
                  API server:  %s (kube-apiserver %s; kubectl of the same release: %s)
                  operator:    %s (health %s/q/health, metrics %s/q/metrics, log %s)
                  state:       %s

                Use it with:
                  export KUBECONFIG=%s PATH=%s:$PATH
                  kubectl apply -f docs/examples/etcdcluster.yaml
                  kubectl get etcdclusters,pods

                %sPress Ctrl-C to stop.
                %n""", sandbox.api().url(), Parts.version(Parts.KUBE), Parts.program(Parts.KUBE, "kubectl"),
                sandbox.operator().url(), sandbox.operator().url(),
                sandbox.operator().url(), sandbox.operator().logFile(), sandbox.stateDir().toAbsolutePath(),
                sandbox.kubeconfig(), Parts.bin(Parts.KUBE), s3 ? s3Usage(sandbox.s3()) : "");
        stopped.await();
    }

    /**
     * The sandbox stops when the process that started it goes away: a SIGTERM to Maven ends Maven alone, and its
     * child, this JVM, must not outlive it with every etcd it started. The shutdown hook then stops everything.
     */
    private static void exitWithParent() {
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> {
            System.out.println("The process that started the sandbox (pid " + parent.pid() + ") has ended.");
            System.exit(0);
        }));
    }

    private static String s3Usage(S3Server s3) {
        return """
                S3 (MinIO, which checks SigV4 signatures as S3 does): %s
                  bucket %s, Secret default/%s (files "credentials" and "config", profile default)
                  data %s, log %s
                  the backups in docs/examples/etcdbackup*.yaml and etcdrestore.yaml go there
                  with the AWS CLI:
                    AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s AWS_REGION=%s \\
                      aws --endpoint-url %s s3 ls s3://%s/

                """.formatted(s3.endpoint(), Sandbox.S3_BUCKET, Sandbox.S3_SECRET, s3.dataDir(), s3.logFile(),
                s3.accessKey(), s3.secretKey(), s3.region(), s3.endpoint(), Sandbox.S3_BUCKET);
    }
}
