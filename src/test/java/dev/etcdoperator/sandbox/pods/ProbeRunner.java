package dev.etcdoperator.sandbox.pods;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.HttpsURLConnection;

import dev.etcdoperator.sandbox.support.TrustAllTls;

/**
 * Runs one probe of one container on a schedule, as kubelet does: exec in the container's context,
 * httpGet (2xx and 3xx succeed; HTTPS without certificate checks, as kubelet) or tcpSocket, with
 * initialDelaySeconds, periodSeconds, timeoutSeconds and success/failure thresholds.
 */
final class ProbeRunner {
    private final Probe probe;
    private final Container container;
    private final ContainerLauncher launcher;
    private final ScheduledExecutorService executor;
    private final long periodMillis;
    private volatile ScheduledFuture<?> next;
    private volatile boolean cancelled;
    private int successes;
    private int failures;
    private volatile boolean succeeding;
    private volatile boolean failed;
    private volatile boolean everSucceeded;

    ProbeRunner(Probe probe, Container container, ContainerLauncher launcher, ScheduledExecutorService executor) {
        this.probe = probe;
        this.container = container;
        this.launcher = launcher;
        this.executor = executor;
        this.periodMillis = seconds(probe.getPeriodSeconds(), 10) * 1000L;
        this.next = executor.schedule(this::tick, seconds(probe.getInitialDelaySeconds(), 0) * 1000L,
                TimeUnit.MILLISECONDS);
    }

    static void validate(Probe probe, String what) throws NotEmulatedException {
        if (probe != null && probe.getExec() == null && probe.getHttpGet() == null && probe.getTcpSocket() == null) {
            throw new NotEmulatedException("ProbeNotEmulated", what + ": only exec, httpGet and tcpSocket probes are emulated");
        }
    }

    /** True after successThreshold consecutive successes, false again after failureThreshold failures. */
    boolean succeeding() {
        return succeeding;
    }

    /** True once failureThreshold consecutive checks failed. */
    boolean failed() {
        return failed;
    }

    boolean everSucceeded() {
        return everSucceeded;
    }

    void cancel() {
        cancelled = true;
        next.cancel(true);
    }

    /**
     * One check, then the next a period after this one started, as the kubelet's ticker: a check that outlasts its
     * period is followed by the next at once, and missed periods are not made up.
     */
    private void tick() {
        long started = System.nanoTime();
        runOnce();
        if (!cancelled) {
            long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            next = executor.schedule(this::tick, Math.max(0, periodMillis - elapsed), TimeUnit.MILLISECONDS);
            if (cancelled) {
                next.cancel(true);
            }
        }
    }

    private synchronized void runOnce() {
        boolean ok;
        try {
            ok = check();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            ok = false;
        }
        if (ok) {
            failures = 0;
            successes++;
            if (successes >= seconds(probe.getSuccessThreshold(), 1)) {
                succeeding = true;
                everSucceeded = true;
            }
        } else {
            successes = 0;
            failures++;
            if (failures >= seconds(probe.getFailureThreshold(), 3)) {
                succeeding = false;
                failed = true;
            }
        }
    }

    private boolean check() throws Exception {
        Duration timeout = Duration.ofSeconds(seconds(probe.getTimeoutSeconds(), 1));
        if (probe.getExec() != null) {
            List<String> command = probe.getExec().getCommand();
            return launcher.exec(container, command, timeout) == 0;
        }
        if (probe.getTcpSocket() != null) {
            String host = probe.getTcpSocket().getHost() != null ? probe.getTcpSocket().getHost() : launcher.podIp();
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port(probe.getTcpSocket().getPort())), (int) timeout.toMillis());
                return true;
            }
        }
        var get = probe.getHttpGet();
        String host = get.getHost() != null ? get.getHost() : launcher.podIp();
        String scheme = get.getScheme() == null ? "http" : get.getScheme().toLowerCase();
        String path = get.getPath() == null ? "/" : get.getPath();
        URI uri = URI.create(scheme + "://" + host + ":" + port(get.getPort()) + (path.startsWith("/") ? path : "/" + path));
        HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
        if (connection instanceof HttpsURLConnection) {
            HttpsURLConnection https = (HttpsURLConnection) connection;
            https.setSSLSocketFactory(TrustAllTls.context().getSocketFactory());
            https.setHostnameVerifier((name, session) -> true);
        }
        connection.setConnectTimeout((int) timeout.toMillis());
        connection.setReadTimeout((int) timeout.toMillis());
        connection.setInstanceFollowRedirects(false);
        if (get.getHttpHeaders() != null) {
            get.getHttpHeaders().forEach(h -> connection.setRequestProperty(h.getName(), h.getValue()));
        }
        try {
            int code = connection.getResponseCode();
            return code >= 200 && code < 400;
        } finally {
            connection.disconnect();
        }
    }

    private int port(IntOrString port) {
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        for (ContainerPort p : container.getPorts() == null ? List.<ContainerPort>of() : container.getPorts()) {
            if (port.getStrVal().equals(p.getName())) {
                return p.getContainerPort();
            }
        }
        return Integer.parseInt(port.getStrVal());
    }

    private static int seconds(Integer value, int fallback) {
        return value == null ? fallback : value;
    }
}
