package dev.etcdoperator.backup;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.etcdoperator.core.backup.BackupFailure;
import dev.etcdoperator.core.backup.SourceChoice;
import dev.etcdoperator.etcd.EtcdAdmin;
import dev.etcdoperator.etcd.EtcdAdminException;
import dev.etcdoperator.etcd.EtcdAdminFactory;
import dev.etcdoperator.etcd.EtcdTls;
import dev.etcdoperator.etcd.Member;
import dev.etcdoperator.etcd.MemberStatus;

/**
 * Finds the member to take a snapshot from. The endpoints a user gives may be a Service in front of the members
 * or a subset of them, so the member list is asked for first and every started member is asked for its revision;
 * the endpoints themselves are asked too, in case the members' advertised URLs cannot be reached from here.
 */
final class SnapshotSources {
    private final EtcdAdminFactory admins;

    SnapshotSources(EtcdAdminFactory admins) {
        this.admins = admins;
    }

    SourceChoice.Candidate pick(List<String> endpoints, EtcdTls tls) {
        List<String> problems = new ArrayList<>();
        List<SourceChoice.Candidate> answered = new ArrayList<>();
        try (EtcdAdmin admin = admins.open(endpoints, tls)) {
            Set<String> urls = new LinkedHashSet<>();
            try {
                for (Member m : admin.members()) {
                    if (m.started()) {
                        urls.addAll(m.clientUrls());
                    }
                }
            } catch (EtcdAdminException e) {
                problems.add(e.getMessage());
            }
            urls.addAll(endpoints);
            Set<Long> seen = new java.util.HashSet<>();
            for (String url : urls) {
                try {
                    MemberStatus status = admin.status(url);
                    if (!seen.add(status.memberId())) {
                        continue;
                    }
                    long revision = admin.revision(url);
                    answered.add(new SourceChoice.Candidate(url, status.memberId(), revision, status.version(),
                            status.learner()));
                } catch (EtcdAdminException e) {
                    problems.add(e.getMessage());
                }
            }
        } catch (IllegalArgumentException e) {
            throw new BackupFailure(BackupFailure.ETCD_UNREACHABLE, "cannot connect to " + endpoints + ": "
                    + e.getMessage(), true, e);
        }
        return SourceChoice.best(answered).orElseThrow(() -> new BackupFailure(BackupFailure.ETCD_UNREACHABLE,
                "no etcd member answered at " + String.join(", ", endpoints) + ": " + String.join("; ", problems), true));
    }
}
