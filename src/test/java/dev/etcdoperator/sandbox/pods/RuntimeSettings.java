package dev.etcdoperator.sandbox.pods;

import java.time.Duration;

/**
 * Knobs of the pod runtime.
 *
 * @param firstIp the first loopback address handed to a pod
 * @param closeGrace how long {@link PodRuntime#close()} waits after SIGTERM before SIGKILL
 * @param containerGrace grace after a failed liveness or startup probe
 * @param initialBackoff the delay of the second restart in a row (the first is at once, as the kubelet's); it
 *                       doubles up to maxBackoff
 * @param maxBackoff the longest restart delay
 */
public record RuntimeSettings(String firstIp, Duration closeGrace, Duration containerGrace, Duration initialBackoff,
        Duration maxBackoff) {

    public static RuntimeSettings defaults() {
        return new RuntimeSettings("127.1.0.2", Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofMinutes(5));
    }

    public RuntimeSettings withFirstIp(String ip) {
        return new RuntimeSettings(ip, closeGrace, containerGrace, initialBackoff, maxBackoff);
    }

    public RuntimeSettings withCloseGrace(Duration grace) {
        return new RuntimeSettings(firstIp, grace, containerGrace, initialBackoff, maxBackoff);
    }
}
