package dev.etcdoperator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.etcdoperator.core.cluster.MemberHealth;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.Member;
import org.junit.jupiter.api.Test;

/**
 * A member cut off from the leader answers the member list from what it applied before: a member added since is not
 * in it, and its pod would look like no member's. The leader's list is taken instead.
 */
class MemberListFromLeaderTest {
    static final Member A = new Member(1, "a", List.of("http://a:2380"), List.of("http://a:2379"), false);
    static final Member B = new Member(2, "b", List.of("http://b:2380"), List.of("http://b:2379"), false);
    static final Member C = new Member(3, "c", List.of("http://c:2380"), List.of("http://c:2379"), false);
    static final Map<Long, String> URLS = Map.of(1L, "http://a:2379", 2L, "http://b:2379", 3L, "http://c:2379");

    static final ClusterObserver.Known KNOWN = known(java.util.Set.of(), "a", "b", "c");
    static final dev.etcdoperator.core.cluster.MemberNaming NAMING = new dev.etcdoperator.core.cluster.MemberNaming(
            "x", "ns");

    final List<String> asked = new ArrayList<>();

    /** Running pods of {@code names}, whose etcd has run, and {@code claims}. */
    static ClusterObserver.Known known(java.util.Set<String> claims, String... names) {
        return new ClusterObserver.Known(java.util.Arrays.stream(names).map(n ->
                new dev.etcdoperator.core.cluster.MemberPod(n, true, true, false, "3.5.35", !claims.isEmpty())).toList(),
                claims, java.time.Instant.parse("2026-01-01T00:00:00Z"));
    }

    EtcdAdmin leaderAnswering(List<Member> list) {
        return (EtcdAdmin) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {EtcdAdmin.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("members") && args != null && args.length == 1) {
                        asked.add((String) args[0]);
                        if (list == null) {
                            throw new EtcdAdminException(EtcdAdminException.Kind.UNAVAILABLE, "no answer", null);
                        }
                        return list;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    static MemberHealth health(long id, boolean healthy, boolean leader, long raftIndex) {
        return new MemberHealth(id, healthy, leader, "3.5.35", raftIndex, 0, 0, 0);
    }

    @Test
    void aListFromAMemberOtherThanTheLeaderIsAskedOfTheLeader() {
        EtcdAdmin.Members stale = new EtcdAdmin.Members(1, List.of(A, B));
        Map<Long, MemberHealth> health = Map.of(1L, health(1, false, false, 10), 2L, health(2, true, true, 20));
        assertThat(ClusterObserver.fromLeader(leaderAnswering(List.of(A, B, C)), stale, health, URLS, KNOWN, NAMING, "ns", "x"))
                .isEqualTo(new ClusterObserver.LeaderList(List.of(A, B, C), true));
        assertThat(asked).containsExactly("http://b:2379");
    }

    @Test
    void theLeadersOwnListStands() {
        EtcdAdmin.Members fromLeader = new EtcdAdmin.Members(2, List.of(A, B));
        Map<Long, MemberHealth> health = Map.of(1L, health(1, true, false, 20), 2L, health(2, true, true, 20));
        assertThat(ClusterObserver.fromLeader(leaderAnswering(List.of(A, B, C)), fromLeader, health, URLS, KNOWN, NAMING, "ns", "x"))
                .isEqualTo(new ClusterObserver.LeaderList(List.of(A, B), true));
        assertThat(asked).isEmpty();
    }

    /** The list stands, but as no leader's: it may lack members added since, or still name members removed. */
    @Test
    void withNoLeaderKnownOrAnsweringTheListStandsAsNoLeaders() {
        EtcdAdmin.Members listed = new EtcdAdmin.Members(1, List.of(A, B));
        Map<Long, MemberHealth> noLeader = Map.of(1L, health(1, false, false, 10), 2L, health(2, false, false, 10));
        assertThat(ClusterObserver.fromLeader(leaderAnswering(List.of(A)), listed, noLeader, URLS, KNOWN, NAMING, "ns", "x"))
                .isEqualTo(new ClusterObserver.LeaderList(List.of(A, B), false));
        Map<Long, MemberHealth> leaderB = Map.of(1L, health(1, false, false, 10), 2L, health(2, true, true, 20));
        assertThat(ClusterObserver.fromLeader(leaderAnswering(null), listed, leaderB, URLS, KNOWN, NAMING, "ns", "x"))
                .isEqualTo(new ClusterObserver.LeaderList(List.of(A, B), false));
        assertThat(asked).containsExactly("http://b:2379");
    }

    @Test
    void aLeadersOwnListThatCannotBeTheClustersIsNoLeadersList() {
        // the answering member leads a cluster of its own (its data wiped): its list lacks most known members
        EtcdAdmin.Members listed = new EtcdAdmin.Members(1, List.of(A));
        Map<Long, MemberHealth> health = Map.of(1L, health(1, true, true, 10));
        assertThat(ClusterObserver.fromLeader(leaderAnswering(List.of(A)), listed, health, URLS, KNOWN, NAMING, "ns", "x"))
                .isEqualTo(new ClusterObserver.LeaderList(List.of(A), false));
        assertThat(asked).isEmpty();
    }

    /**
     * A member started again on an empty data directory leads a new cluster of its own, whose log may be the longer
     * (clients wrote to it): its list, itself alone, cannot be the cluster's, and the other leader's is taken.
     */
    @Test
    void aLeaderWithTheNewerLogWhoseListLacksMostMembersIsPassedOver() {
        EtcdAdmin.Members listed = new EtcdAdmin.Members(3, List.of(A, B, C));
        Map<Long, MemberHealth> health = Map.of(1L, health(1, true, true, 9000), 2L, health(2, true, true, 500),
                3L, health(3, true, false, 500));
        EtcdAdmin admin = (EtcdAdmin) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {EtcdAdmin.class}, (proxy, method, args) -> {
                    asked.add((String) args[0]);
                    return args[0].equals("http://a:2379") ? List.of(A) : List.of(A, B, C);
                });
        assertThat(ClusterObserver.fromLeader(admin, listed, health, URLS, KNOWN, NAMING, "ns", "x"))
                .isEqualTo(new ClusterObserver.LeaderList(List.of(A, B, C), true));
        assertThat(asked).containsExactly("http://a:2379", "http://b:2379");
    }

    @Test
    void aListLackingAMajorityOfTheKnownMembersCannotBeTheClusters() {
        assertThat(ClusterObserver.plausible(List.of(A), KNOWN, NAMING)).isFalse();
        assertThat(ClusterObserver.plausible(List.of(A, B), KNOWN, NAMING)).isTrue();
        // of two members, one lacking: a scale-down from two to one, until the claim is kept
        assertThat(ClusterObserver.plausible(List.of(A), known(java.util.Set.of(), "a", "b"), NAMING)).isTrue();
        assertThat(ClusterObserver.plausible(List.of(A), known(java.util.Set.of("a", "b"), "a", "b"), NAMING))
                .isFalse();
        assertThat(ClusterObserver.plausible(List.of(A), known(java.util.Set.of()), NAMING)).isTrue();
        Member d = new Member(4, "d", List.of("http://d:2380"), List.of("http://d:2379"), false);
        assertThat(ClusterObserver.plausible(List.of(d), KNOWN, NAMING)).isFalse();
        assertThat(ClusterObserver.plausible(List.of(A, B, C, d), KNOWN, NAMING)).isTrue();
    }

    @Test
    void ofTwoMembersThatSayTheyLeadTheOneWithTheNewerLogIsAsked() {
        EtcdAdmin.Members listed = new EtcdAdmin.Members(3, List.of(A, B, C));
        Map<Long, MemberHealth> health = Map.of(1L, health(1, false, true, 10), 2L, health(2, true, true, 30),
                3L, health(3, true, false, 30));
        ClusterObserver.fromLeader(leaderAnswering(List.of(A, B, C)), listed, health, URLS, KNOWN, NAMING, "ns", "x");
        assertThat(asked).containsExactly("http://b:2379");
    }
}
