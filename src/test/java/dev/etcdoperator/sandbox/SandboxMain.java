package dev.etcdoperator.sandbox;

import java.util.concurrent.CountDownLatch;

/**
 * {@code ./mvnw -Psandbox package -DskipTests}: the packaged operator on the sandbox, in the foreground, until
 * Ctrl-C. Options as system properties: {@code sandbox.apiPort} (default 0, any free port),
 * {@code sandbox.admission} (default true).
 */
public final class SandboxMain {
    private SandboxMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Sandbox.Options options = Sandbox.options()
                .apiPort(Integer.getInteger("sandbox.apiPort", 0))
                .admission(Boolean.parseBoolean(System.getProperty("sandbox.admission", "true")));
        System.out.println("Starting the sandbox: API server, cluster DNS, pod runtime and the packaged operator...");
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

                Press Ctrl-C to stop.
                %n""", sandbox.api().url(), sandbox.operator().url(), sandbox.operator().url(),
                sandbox.operator().url(), sandbox.operator().logFile(), sandbox.stateDir().toAbsolutePath(),
                sandbox.kubeconfig());
        stopped.await();
    }
}
