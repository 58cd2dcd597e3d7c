package dev.etcdoperator.sandbox;

import java.util.concurrent.CountDownLatch;

import dev.etcdoperator.sandbox.s3.S3Server;

/**
 * {@code ./mvnw -Psandbox package -DskipTests}: the packaged operator on the sandbox, in the foreground, until
 * Ctrl-C. Options as system properties: {@code sandbox.apiPort} (default 0, any free port),
 * {@code sandbox.admission} (default true), {@code sandbox.s3} (default true: the S3 server, bucket and Secret
 * the examples in docs/examples use), {@code sandbox.s3Address} (default 127.0.0.1) and {@code sandbox.s3Port}
 * (default 9090, as in the examples; 0 for any free port).
 */
public final class SandboxMain {
    private SandboxMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Sandbox.Options options = Sandbox.options()
                .apiPort(Integer.getInteger("sandbox.apiPort", 0))
                .admission(Boolean.parseBoolean(System.getProperty("sandbox.admission", "true")));
        boolean s3 = Boolean.parseBoolean(System.getProperty("sandbox.s3", "true"));
        if (s3) {
            options.withS3(System.getProperty("sandbox.s3Address", "127.0.0.1"),
                    Integer.getInteger("sandbox.s3Port", 9090));
        }
        System.out.println("Starting the sandbox: API server, cluster DNS, pod runtime, "
                + (s3 ? "S3 server " : "") + "and the packaged operator...");
        Sandbox sandbox = Sandbox.start(options);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Stopping the sandbox and every process it started...");
            sandbox.close();
            stopped.countDown();
        }, "sandbox-shutdown"));
        System.out.printf("""

                The sandbox is ready.
                  API server:  %s
                  operator:    %s (health %s/q/health, metrics %s/q/metrics, log %s)
                  state:       %s

                Use it with:
                  export KUBECONFIG=%s
                  kubectl apply -f docs/examples/etcdcluster.yaml
                  kubectl get etcdclusters,pods

                %sPress Ctrl-C to stop.
                %n""", sandbox.api().url(), sandbox.operator().url(), sandbox.operator().url(),
                sandbox.operator().url(), sandbox.operator().logFile(), sandbox.stateDir().toAbsolutePath(),
                sandbox.kubeconfig(), s3 ? s3Usage(sandbox.s3()) : "");
        stopped.await();
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
