package dev.etcdoperator.etcd;

/**
 * Whether one member is healthy, and why not.
 *
 * @param endpoint the client URL that was checked
 * @param healthy  a voter is healthy when it knows a leader, reports no alarm and serves a linearizable read
 *                 (which needs a quorum); a learner when its status answers, names a leader and reports no alarm
 * @param learner  whether the member said it is a learner (false when it did not answer)
 * @param detail   a sentence for people: what was checked or what failed
 */
public record MemberHealth(String endpoint, boolean healthy, boolean learner, String detail) {
}
