package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class PodDemandTest {
    private static Pod pod(String etcdResources, String initResources) {
        return Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  initContainers: [{name: check-dns, image: busybox, resources: %s}]
                  containers: [{name: etcd, image: etcd, resources: %s}]
                """.formatted(initResources, etcdResources), Pod.class);
    }

    @Test
    void asksNoMoreWhenEveryQuantityOfEveryContainerIsAtMostTheRunningOnes() {
        Pod running = pod("{requests: {memory: 1Gi, cpu: 500m}, limits: {memory: 2Gi}}", "{}");
        assertThat(PodDemand.noMoreThan(running, running)).isTrue();
        assertThat(PodDemand.noMoreThan(pod("{requests: {memory: 1024Mi, cpu: '0.5'}, limits: {memory: 2Gi}}", "{}"),
                running)).as("the same amounts written otherwise").isTrue();
        assertThat(PodDemand.noMoreThan(pod("{requests: {memory: 512Mi}}", "{}"), running)).isTrue();
        assertThat(PodDemand.noMoreThan(pod("{}", "{}"), running)).isTrue();
    }

    @Test
    void asksMoreWhenAnyQuantityGrowsOrIsNew() {
        Pod running = pod("{requests: {memory: 1Gi, cpu: 500m}, limits: {memory: 2Gi}}", "{}");
        assertThat(PodDemand.noMoreThan(pod("{requests: {memory: 2Gi, cpu: 500m}, limits: {memory: 2Gi}}", "{}"),
                running)).isFalse();
        assertThat(PodDemand.noMoreThan(pod("{requests: {memory: 1Gi, cpu: '1'}}", "{}"), running)).isFalse();
        assertThat(PodDemand.noMoreThan(pod("{limits: {memory: 2Gi, cpu: '1'}}", "{}"), running))
                .as("a limit the running pod has not").isFalse();
        assertThat(PodDemand.noMoreThan(pod("{}", "{requests: {memory: 1Mi}}"), running))
                .as("an init container's").isFalse();
    }
}
