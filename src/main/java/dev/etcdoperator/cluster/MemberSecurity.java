package dev.etcdoperator.cluster;

import dev.etcdoperator.api.v1beta2.PodPolicy;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

/**
 * Member pods pass the {@code restricted} Pod Security Standard: by default they run as user and group 9000 (as
 * the CoreOS documentation suggested), own their volumes through {@code fsGroup} and use the runtime's seccomp
 * profile. {@code spec.pod.securityContext}, when given, replaces the pod's security context as it is. Every
 * container, init containers included, runs without privilege escalation and with every capability dropped:
 * etcd, etcdctl, etcdutl and the busybox steps need none. A restore drill's pod runs the same way, under the
 * pod policy of the cluster its backup names.
 */
public final class MemberSecurity {
    static final long USER = 9000;

    private MemberSecurity() {
    }

    static PodSecurityContext pod(PodPolicy policy) {
        if (policy.getSecurityContext() != null) {
            return policy.getSecurityContext();
        }
        return new PodSecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withRunAsUser(USER)
                .withRunAsGroup(USER)
                .withFsGroup(USER)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .build();
    }

    static SecurityContext container() {
        return new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .build();
    }

    /** Sets the pod's security context and every container's. */
    public static Pod restrict(Pod pod, PodPolicy policy) {
        pod.getSpec().setSecurityContext(pod(policy));
        for (Container c : pod.getSpec().getInitContainers()) {
            c.setSecurityContext(container());
        }
        for (Container c : pod.getSpec().getContainers()) {
            c.setSecurityContext(container());
        }
        return pod;
    }
}
