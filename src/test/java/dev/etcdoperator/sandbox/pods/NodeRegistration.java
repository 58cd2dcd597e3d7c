package dev.etcdoperator.sandbox.pods;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.sandbox.Edits;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddressBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The node agent's Node object: registered Ready with room for many pods, as a kubelet registers its node. The
 * {@code node.kubernetes.io/not-ready} taint that the API server puts on a new Node is taken off once the Node is
 * Ready (the node lifecycle controller would do it; the sandbox does not run that controller, because nothing
 * here can fail the way a remote node does).
 */
final class NodeRegistration {
    static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";

    private NodeRegistration() {
    }

    static void register(KubernetesClient client, String nodeName) {
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity("64"), "memory", new Quantity("256Gi"),
                "pods", new Quantity("500"), "ephemeral-storage", new Quantity("100Gi"));
        Node node = new NodeBuilder().withNewMetadata().withName(nodeName)
                .addToLabels("kubernetes.io/hostname", nodeName).addToLabels("kubernetes.io/os", "linux")
                .addToLabels("kubernetes.io/arch", "amd64").endMetadata()
                .build();
        if (client.nodes().withName(nodeName).get() == null) {
            client.nodes().resource(node).create();
        }
        String now = Instant.now().toString();
        client.nodes().withName(nodeName).editStatus(n -> new NodeBuilder(n).editOrNewStatus()
                .withCapacity(capacity).withAllocatable(capacity)
                .withConditions(new NodeConditionBuilder().withType("Ready").withStatus("True")
                        .withReason("SandboxNodeAgentReady").withMessage("the sandbox node agent runs pods as local processes")
                        .withLastHeartbeatTime(now).withLastTransitionTime(now).build())
                .withAddresses(new NodeAddressBuilder().withType("InternalIP").withAddress("127.0.0.1").build(),
                        new NodeAddressBuilder().withType("Hostname").withAddress(nodeName).build())
                .withNodeInfo(new NodeSystemInfoBuilder().withArchitecture("amd64").withOperatingSystem("linux")
                        .withKubeletVersion("sandbox").withKubeProxyVersion("").withContainerRuntimeVersion("sandbox://processes")
                        .withOsImage("local processes").withKernelVersion(System.getProperty("os.version"))
                        .withMachineID(nodeName).withSystemUUID(nodeName).withBootID(nodeName).build())
                .endStatus().build());
        Edits.edit(client.nodes().withName(nodeName), n -> {
            if (n.getSpec() != null && n.getSpec().getTaints() != null) {
                n.getSpec().setTaints(List.copyOf(n.getSpec().getTaints().stream()
                        .filter(t -> !NOT_READY_TAINT.equals(t.getKey())).toList()));
            }
            return n;
        });
    }
}
