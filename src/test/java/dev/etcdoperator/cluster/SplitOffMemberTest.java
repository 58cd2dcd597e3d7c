package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.core.cluster.MemberHealth;
import dev.etcdoperator.core.cluster.MemberNaming;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.Member;
import dev.etcdoperator.etcd.MemberStatus;
import org.junit.jupiter.api.Test;

/**
 * A member started again on an empty data directory with its first {@code --initial-cluster-state=new} leads a new
 * cluster of its own under the same IDs. Its member list names itself alone; the observer must neither take that
 * list for the cluster's nor count the member as a healthy one of it.
 */
class SplitOffMemberTest {
    static final MemberNaming NAMING = new MemberNaming("demo", "ns");
    static final Member A = member(1, "demo-a");
    static final Member B = member(2, "demo-b");
    static final Member C = member(3, "demo-c");
    static final Map<String, String> URL_BY_POD = new LinkedHashMap<>(Map.of("demo-a", "http://a:2379",
            "demo-b", "http://b:2379", "demo-c", "http://c:2379"));

    final Map<String, MemberStatus> status = new HashMap<>();
    final Map<String, List<Member>> lists = new HashMap<>();
    final List<String> asked = new ArrayList<>();

    static Member member(long id, String name) {
        return new Member(id, name, List.of("http://" + name + ":2380"), List.of("http://" + name + ":2379"), false);
    }

    EtcdAdmin admin() {
        return (EtcdAdmin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {EtcdAdmin.class},
                (proxy, method, args) -> {
                    String url = (String) args[0];
                    asked.add(method.getName() + " " + url);
                    Object answer = switch (method.getName()) {
                        case "status" -> status.get(url);
                        case "members" -> lists.get(url);
                        default -> throw new UnsupportedOperationException(method.getName());
                    };
                    if (answer == null) {
                        throw new EtcdAdminException(EtcdAdminException.Kind.UNAVAILABLE, "no answer", null);
                    }
                    return answer;
                });
    }

    static MemberStatus status(String url, long id, long leader, long raftIndex) {
        return new MemberStatus(url, id, "3.5.35", leader, raftIndex, 3, raftIndex, 0, 0, false, List.of());
    }

    static MemberHealth health(long id, boolean leader, long raftIndex) {
        return new MemberHealth(id, true, leader, "3.5.35", raftIndex, 0, 0, 0);
    }

    static final ClusterObserver.Known KNOWN = new ClusterObserver.Known(java.util.stream.Stream.of("demo-a",
            "demo-b", "demo-c").map(n -> new dev.etcdoperator.core.cluster.MemberPod(n, true, true, false, "3.5.35",
                    false)).toList(), java.util.Set.of(), java.time.Instant.parse("2026-01-01T00:00:00Z"));

    /**
     * A member being sent the leader's log again (its data wiped) answers from what it applied so far: its list
     * lacks the members added since, the leader among them, and names no leader. The leader, a pod the list lacks, is
     * asked; a follower the list lacks is not taken for it.
     */
    @Test
    void aListThatNamesNoLeaderGivesWayToTheLeadersWhenTheLeaderIsAPodItLacks() {
        status.put("http://c:2379", status("http://c:2379", 3, 3, 5001));
        lists.put("http://c:2379", List.of(A, B, C));
        assertThat(ClusterObserver.fromUnlisted(admin(), List.of(A, B), URL_BY_POD, NAMING, KNOWN, true))
                .hasValueSatisfying(m -> {
                    assertThat(m.answeredBy()).isEqualTo(3);
                    assertThat(m.members()).containsExactly(A, B, C);
                });
        // demo-c a follower of a leader the list names: nothing taken from it
        status.put("http://c:2379", status("http://c:2379", 3, 2, 5001));
        assertThat(ClusterObserver.fromUnlisted(admin(), List.of(A, B), URL_BY_POD, NAMING, KNOWN, true)).isEmpty();
    }

    @Test
    void aListFromAMemberLeadingItsOwnClusterGivesWayToAPodsList() {
        // demo-a answered first: its new cluster lists it alone; demo-b and demo-c run the cluster, demo-c leads
        status.put("http://b:2379", status("http://b:2379", 2, 3, 5000));
        status.put("http://c:2379", status("http://c:2379", 3, 3, 5001));
        lists.put("http://b:2379", List.of(A, B, C));
        lists.put("http://c:2379", List.of(A, B, C));
        assertThat(ClusterObserver.fromUnlisted(admin(), List.of(A), URL_BY_POD, NAMING, KNOWN))
                .hasValueSatisfying(m -> {
                    assertThat(m.answeredBy()).isEqualTo(3);
                    assertThat(m.members()).containsExactly(A, B, C);
                });
    }

    @Test
    void aRicherLogAloneDoesNotMakeAListTheClusters() {
        // pods that answer without a leader (cut off), or with a list as partial as the one that answered
        status.put("http://b:2379", status("http://b:2379", 2, 0, 9000));
        status.put("http://c:2379", status("http://c:2379", 3, 3, 9001));
        lists.put("http://b:2379", List.of(A, B, C));
        lists.put("http://c:2379", List.of(C));
        assertThat(ClusterObserver.fromUnlisted(admin(), List.of(A), URL_BY_POD, NAMING, KNOWN)).isEmpty();
        assertThat(asked).containsExactly("status http://b:2379", "status http://c:2379", "members http://c:2379");
    }

    @Test
    void silentPodsChangeNothing() {
        assertThat(ClusterObserver.fromUnlisted(admin(), List.of(A), URL_BY_POD, NAMING, KNOWN)).isEmpty();
        assertThat(asked).containsExactly("status http://b:2379", "status http://c:2379");
    }

    @Test
    void aSecondLeaderWhoseOwnListLacksMostMembersIsSplitOff() {
        lists.put("http://a:2379", List.of(A));
        Map<Long, MemberHealth> health = Map.of(1L, health(1, true, 8), 2L, health(2, true, 5000),
                3L, health(3, false, 5000));
        Map<Long, String> urls = Map.of(1L, "http://a:2379", 2L, "http://b:2379", 3L, "http://c:2379");
        assertThat(ClusterObserver.splitOff(admin(), List.of(A, B, C), health, urls)).containsExactly(1L);
        assertThat(asked).containsExactly("members http://a:2379", "members http://b:2379");

        // the log of the one leading its own cluster may be the longer: it is split off all the same
        lists.put("http://b:2379", List.of(A, B, C));
        Map<Long, MemberHealth> longer = Map.of(1L, health(1, true, 9000), 2L, health(2, true, 5000),
                3L, health(3, false, 5000));
        assertThat(ClusterObserver.splitOff(admin(), List.of(A, B, C), longer, urls)).containsExactly(1L);
    }

    @Test
    void aLeaderCutOffFromTheOthersIsNotSplitOff() {
        // it still says it leads until it steps down, and lists the members (one added since may be missing)
        lists.put("http://a:2379", List.of(A, B, C));
        Map<Long, MemberHealth> health = Map.of(1L, health(1, true, 990), 2L, health(2, true, 1000),
                3L, health(3, false, 1000));
        Map<Long, String> urls = Map.of(1L, "http://a:2379", 2L, "http://b:2379", 3L, "http://c:2379");
        assertThat(ClusterObserver.splitOff(admin(), List.of(A, B, C), health, urls)).isEmpty();

        Member d = member(4, "demo-d");
        lists.put("http://a:2379", List.of(A, B, C));
        assertThat(ClusterObserver.splitOff(admin(), List.of(A, B, C, d), health, urls)).isEmpty();
    }

    @Test
    void withOneLeaderOrASilentSecondOneNothingIsSplitOff() {
        Map<Long, String> urls = Map.of(1L, "http://a:2379", 2L, "http://b:2379", 3L, "http://c:2379");
        Map<Long, MemberHealth> oneLeader = Map.of(1L, health(1, false, 1000), 2L, health(2, true, 1000));
        assertThat(ClusterObserver.splitOff(admin(), List.of(A, B, C), oneLeader, urls)).isEmpty();
        assertThat(asked).isEmpty();

        Map<Long, MemberHealth> two = Map.of(1L, health(1, true, 8), 2L, health(2, true, 5000));
        assertThat(ClusterObserver.splitOff(admin(), List.of(A, B, C), two, urls)).isEmpty();
        assertThat(asked).containsExactly("members http://a:2379", "members http://b:2379");
    }
}
