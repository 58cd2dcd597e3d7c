package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.etcdoperator.api.v1beta2.EtcdCluster;
import dev.etcdoperator.core.cluster.ClusterObservation;
import dev.etcdoperator.core.cluster.MemberAlarm;
import dev.etcdoperator.etcd.Alarm;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.Member;
import dev.etcdoperator.etcd.MemberHealth;
import dev.etcdoperator.etcd.MemberStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * etcd lists its alarms through raft: the observer asks for them only while a member it reached leads or serves
 * linearizable reads, so that a cluster that lost its quorum is not observed at the pace of a call's deadline.
 */
class ClusterObserverAlarmsTest {
    private static final EtcdCluster CLUSTER = Serialization.unmarshal("""
            apiVersion: etcd.database.coreos.com/v1beta2
            kind: EtcdCluster
            metadata: {name: demo, namespace: prod, uid: uid-demo}
            spec: {size: 2, version: 3.5.17}
            status: {currentVersion: 3.5.17}
            """, EtcdCluster.class);

    private final AtomicInteger alarmCalls = new AtomicInteger();

    private static Pod pod(String name, String ip) {
        return Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: prod}
                spec: {containers: [{name: etcd, image: "quay.io/coreos/etcd:v3.5.17"}]}
                status:
                  phase: Running
                  podIP: %s
                  containerStatuses: [{name: etcd, ready: false, restartCount: 0, image: x, imageID: x,
                    state: {running: {startedAt: "2026-11-30T09:00:00Z"}}}]
                """.formatted(name, ip), Pod.class);
    }

    /** Two members that answer; {@code leader} is the id both report as leader (0: none), neither reads. */
    private EtcdAdmin members(long leader) {
        return (EtcdAdmin) Proxy.newProxyInstance(EtcdAdmin.class.getClassLoader(), new Class<?>[] { EtcdAdmin.class },
                (proxy, method, args) -> method.isDefault()
                        ? java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args)
                        : switch (method.getName()) {
                    case "members" -> List.of(
                            new Member(1, "demo-a", List.of("http://demo-a.demo.prod.svc:2380"), List.of(), false),
                            new Member(2, "demo-b", List.of("http://demo-b.demo.prod.svc:2380"), List.of(), false));
                    case "status" -> {
                        long id = ((String) args[0]).contains("10.0.0.1") ? 1 : 2;
                        yield new MemberStatus((String) args[0], id, "3.5.17", leader, 10, 2, 10, 4096, 4096, false,
                                List.of(), 7, 5, "", "");
                    }
                    case "health" -> new MemberHealth((String) args[0], false, false, "no linearizable read");
                    case "alarms" -> {
                        alarmCalls.incrementAndGet();
                        if (alarmsFail) {
                            throw new dev.etcdoperator.etcd.EtcdAdminException(
                                    dev.etcdoperator.etcd.EtcdAdminException.Kind.UNAVAILABLE, "deadline exceeded", null);
                        }
                        yield List.of(new Alarm(1, MemberAlarm.CORRUPT));
                    }
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private ClusterObservation observe(long leader) {
        ClusterObserver observer = new ClusterObserver(new EtcdAdmins((urls, tls) -> members(leader)),
                Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC));
        return observer.observe(CLUSTER, List.of(pod("demo-a", "10.0.0.1"), pod("demo-b", "10.0.0.2")), Set.of())
                .observation();
    }

    /** Only a list that a member whose etcd leads answered may make a pod no member's, or scale the cluster. */
    @Test
    void theListIsTheLeadersOnlyWhenAMemberThatLeadsAnsweredIt() {
        assertThat(observe(1).listFromLeader()).isTrue();
        assertThat(observe(0).listFromLeader()).isFalse();
    }

    @Test
    void withNoLeaderTheAlarmsAreNotAskedFor() {
        ClusterObservation o = observe(0);
        assertThat(o.members()).isPresent();
        assertThat(alarmCalls).hasValue(0);
        assertThat(o.space().alarms()).isEmpty();
    }

    /** Alarms read once stand while they cannot be read again: a raised alarm is never taken as gone. */
    @Test
    void alarmsThatCannotBeReadAgainAreTheLastOnesRead() {
        ClusterObserver observer = new ClusterObserver(new EtcdAdmins((urls, tls) -> members(1)),
                Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC));
        List<io.fabric8.kubernetes.api.model.Pod> pods = List.of(pod("demo-a", "10.0.0.1"), pod("demo-b", "10.0.0.2"));
        assertThat(observer.observe(CLUSTER, pods, Set.of()).observation().space().alarms())
                .containsExactly(new MemberAlarm(1, MemberAlarm.CORRUPT));
        alarmsFail = true;
        assertThat(observer.observe(CLUSTER, pods, Set.of()).observation().space().alarms())
                .containsExactly(new MemberAlarm(1, MemberAlarm.CORRUPT));
        assertThat(alarmCalls).hasValue(2);
    }

    volatile boolean alarmsFail;

    @Test
    void withALeaderTheAlarmsAreReadEvenWhenNoMemberServesReads() {
        ClusterObservation o = observe(1);
        assertThat(alarmCalls).hasValue(1);
        assertThat(o.space().alarms()).containsExactly(new MemberAlarm(1, MemberAlarm.CORRUPT));
    }
}
