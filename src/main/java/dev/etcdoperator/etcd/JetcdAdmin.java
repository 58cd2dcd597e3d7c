package dev.etcdoperator.etcd;

import io.etcd.jetcd.api.AlarmMember;
import io.etcd.jetcd.api.AlarmRequest;
import io.etcd.jetcd.api.AlarmType;
import io.etcd.jetcd.api.ClusterGrpc;
import io.etcd.jetcd.api.CompactionRequest;
import io.etcd.jetcd.api.DefragmentRequest;
import io.etcd.jetcd.api.HashKVRequest;
import io.etcd.jetcd.api.HashKVResponse;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.MemberAddRequest;
import io.etcd.jetcd.api.MemberListRequest;
import io.etcd.jetcd.api.MemberListResponse;
import io.etcd.jetcd.api.MemberRemoveRequest;
import io.etcd.jetcd.api.MoveLeaderRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.StatusRequest;
import io.etcd.jetcd.api.StatusResponse;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.etcdoperator.core.backup.KeyspaceFingerprint;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * {@link EtcdAdmin} on jetcd 0.8.5's generated gRPC API for one etcd cluster.
 * <p>
 * Every call goes over a gRPC channel to one member, kept for the admin's life (see {@link MemberChannels}): calls
 * about one member (status, health, revision) to that member, cluster-wide calls (member list, add, remove, promote,
 * alarms) to the member that answered the last one, then to the others in turn. So a cluster costs one connection per
 * member and no thread: every channel runs on gRPC's shared event loops. (A jetcd {@code Client} would bring a
 * Vert.x instance of its own, with its threads, and a second connection to each member.) Promotion is called with a
 * hand-made method descriptor, because jetcd 0.8.5 does not know etcd's {@code MemberPromote} RPC (its request and
 * response have the same wire shape as {@code MemberRemoveRequest} and {@code MemberListResponse}). Every call
 * carries the call timeout as a gRPC deadline, so a dead endpoint cannot hang a caller.
 */
public final class JetcdAdmin implements EtcdAdmin {
    private static final Logger LOG = Logger.getLogger(JetcdAdmin.class);

    static final MethodDescriptor<MemberRemoveRequest, MemberListResponse> MEMBER_PROMOTE = MethodDescriptor
            .<MemberRemoveRequest, MemberListResponse>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(ClusterGrpc.SERVICE_NAME, "MemberPromote"))
            .setRequestMarshaller(ProtoUtils.marshaller(MemberRemoveRequest.getDefaultInstance()))
            .setResponseMarshaller(ProtoUtils.marshaller(MemberListResponse.getDefaultInstance()))
            .build();

    /** Fields of etcd's StatusResponse that jetcd 0.8.5's proto does not declare (kept as unknown fields). */
    private static final int STATUS_RAFT_APPLIED_INDEX = 7;
    private static final int STATUS_ERRORS = 8;
    private static final int STATUS_DB_SIZE_IN_USE = 9;
    private static final int STATUS_IS_LEARNER = 10;
    private static final int STATUS_STORAGE_VERSION = 11;
    private static final int STATUS_DOWNGRADE_INFO = 13;

    /** etcd's answer while its guard refuses a reconfiguration until every voter has been connected for 5 s. */
    static final String GUARD_REFUSAL = "unhealthy cluster";
    /** etcd's answer about a revision it no longer has. */
    private static final String COMPACTED = "required revision has been compacted";

    private final EtcdAdminOptions options;
    private final MemberChannels channels;
    private final EndpointOrder order;

    public JetcdAdmin(List<String> endpoints, EtcdTls tls, EtcdAdminOptions options) {
        this.order = new EndpointOrder(endpoints);
        this.options = Objects.requireNonNull(options, "options");
        EtcdClientFactory factory = new EtcdClientFactory(tls, options.callTimeout());
        endpoints.forEach(factory::checkEndpoint);
        this.channels = new MemberChannels(Set.copyOf(endpoints), factory::newChannel);
    }

    /** With the default options: 5 s per call, 60 s for a reconfiguration. */
    public JetcdAdmin(List<String> endpoints, EtcdTls tls) {
        this(endpoints, tls, EtcdAdminOptions.defaults());
    }

    @Override
    public List<Member> members() {
        return memberList().members();
    }

    @Override
    public Members memberList() {
        MemberListResponse r = onAnyMember("list members", (channel, deadline) -> ClusterGrpc.newBlockingStub(channel)
                .withDeadline(deadline).memberList(MemberListRequest.getDefaultInstance()));
        return new Members(r.getHeader().getMemberId(), r.getMembersList().stream().map(JetcdAdmin::member).toList());
    }

    @Override
    public List<Member> members(String clientUrl) {
        return onMember("list members", clientUrl, (channel, deadline) -> ClusterGrpc.newBlockingStub(channel)
                .withDeadline(deadline).memberList(MemberListRequest.getDefaultInstance()))
                .getMembersList().stream().map(JetcdAdmin::member).toList();
    }

    @Override
    public MemberStatus status(String clientUrl) {
        StatusResponse r = onMember("status", clientUrl,
                (channel, deadline) -> MaintenanceGrpc.newBlockingStub(channel).withDeadline(deadline)
                        .status(StatusRequest.getDefaultInstance()));
        UnknownFieldSet extra = r.getUnknownFields();
        List<String> errors = new ArrayList<>();
        if (extra.hasField(STATUS_ERRORS)) {
            extra.getField(STATUS_ERRORS).getLengthDelimitedList().forEach(b -> errors.add(b.toStringUtf8()));
        }
        return new MemberStatus(clientUrl, r.getHeader().getMemberId(), r.getVersion(), r.getLeader(),
                r.getRaftIndex(), r.getRaftTerm(), varint(extra, STATUS_RAFT_APPLIED_INDEX), r.getDbSize(),
                varint(extra, STATUS_DB_SIZE_IN_USE), varint(extra, STATUS_IS_LEARNER) != 0, errors,
                r.getHeader().getClusterId(), r.getHeader().getRevision(), text(extra, STATUS_STORAGE_VERSION),
                DowngradeCall.enabledTarget(extra, STATUS_DOWNGRADE_INFO));
    }

    @Override
    public String enableDowngrade(String targetVersion) {
        return onAnyMember("enable the downgrade to " + targetVersion, options.reconfigurationDeadline(),
                (channel, deadline) -> DowngradeCall.enable(channel, deadline, targetVersion));
    }

    /**
     * {@inheritDoc}
     * <p>
     * A member whose linearizable read was answered with "leader changed" (its leader died, and the read waited for
     * the election) is asked once more: the election is over when that answer comes, and the member is usually
     * healthy again under the new leader.
     */
    @Override
    public MemberHealth health(String clientUrl) {
        MemberHealth first = healthOnce(clientUrl);
        if (first.healthy() || !EtcdErrors.leaderChanged(first.detail())) {
            return first;
        }
        LOG.debugf("%s: %s; asking again under the new leader", clientUrl, first.detail());
        return healthOnce(clientUrl);
    }

    private MemberHealth healthOnce(String clientUrl) {
        MemberStatus status;
        try {
            status = status(clientUrl);
        } catch (RuntimeException e) {
            return new MemberHealth(clientUrl, false, false, e.getMessage());
        }
        // a NOSPACE alarm refuses writes but leaves the member serving reads: the operator frees the space, which
        // needs the member counted as healthy
        List<String> blocking = status.errors().stream().filter(e -> !e.contains(Alarm.NOSPACE)).toList();
        String space = blocking.size() < status.errors().size() ? "; the NOSPACE alarm is raised: writes are refused" : "";
        if (!blocking.isEmpty()) {
            return new MemberHealth(clientUrl, false, status.learner(), "alarms raised: " + String.join(", ", status.errors()));
        }
        if (!status.hasLeader()) {
            return new MemberHealth(clientUrl, false, status.learner(), "member " + Long.toHexString(status.memberId())
                    + " knows no leader");
        }
        if (status.learner()) {
            return new MemberHealth(clientUrl, true, true, "learner " + Long.toHexString(status.memberId())
                    + " answers and follows leader " + Long.toHexString(status.leaderId()) + space);
        }
        try {
            // what etcdctl endpoint health does: a linearizable read, which needs the leader and a quorum
            onMember("linearizable read", clientUrl, (channel, deadline) -> KVGrpc.newBlockingStub(channel)
                    .withDeadline(deadline).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("health")).build()));
            return new MemberHealth(clientUrl, true, false, "member " + Long.toHexString(status.memberId())
                    + " serves linearizable reads" + space);
        } catch (RuntimeException e) {
            return new MemberHealth(clientUrl, false, false, e.getMessage());
        }
    }

    @Override
    public long revision(String clientUrl) {
        return onMember("serializable read", clientUrl, (channel, deadline) -> KVGrpc.newBlockingStub(channel)
                .withDeadline(deadline)
                .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("health")).setSerializable(true)
                        .setCountOnly(true).build()))
                .getHeader().getRevision();
    }

    @Override
    public KeyspaceFingerprint keyspace(String clientUrl, long revision) {
        Long hash = null;
        Long compactRevision = null;
        Long keyCount = null;
        try {
            HashKVResponse r = onMember("HashKV at revision " + revision, clientUrl, options.reconfigurationDeadline(),
                    (channel, deadline) -> MaintenanceGrpc.newBlockingStub(channel).withDeadline(deadline)
                            .hashKV(HashKVRequest.newBuilder().setRevision(revision).build()));
            hash = Integer.toUnsignedLong(r.getHash());
            compactRevision = r.getCompactRevision();
        } catch (EtcdAdminException e) {
            if (!EtcdErrors.says(e, COMPACTED)) {
                throw e;
            }
        }
        ByteString everyKey = ByteString.copyFrom(new byte[] { 0 });
        try {
            keyCount = onMember("count keys at revision " + revision, clientUrl, options.reconfigurationDeadline(),
                    (channel, deadline) -> KVGrpc.newBlockingStub(channel).withDeadline(deadline)
                            .range(RangeRequest.newBuilder().setKey(everyKey).setRangeEnd(everyKey)
                                    .setRevision(revision).setSerializable(true).setCountOnly(true).build()))
                    .getCount();
        } catch (EtcdAdminException e) {
            if (!EtcdErrors.says(e, COMPACTED)) {
                throw e;
            }
        }
        return new KeyspaceFingerprint(revision, hash, compactRevision, keyCount);
    }

    @Override
    public List<Alarm> alarms() {
        AlarmRequest request = AlarmRequest.newBuilder().setAction(AlarmRequest.AlarmAction.GET)
                .setAlarm(AlarmType.NONE).build();
        return onAnyMember("list alarms", options.callTimeout(), (channel, deadline) -> MaintenanceGrpc
                .newBlockingStub(channel).withDeadline(deadline).alarm(request))
                .getAlarmsList().stream().map(a -> new Alarm(a.getMemberID(), alarmType(a))).toList();
    }

    @Override
    public void disarm(Alarm alarm) {
        AlarmType type;
        try {
            type = AlarmType.valueOf(alarm.type());
        } catch (IllegalArgumentException e) {
            throw new EtcdAdminException(EtcdAdminException.Kind.REJECTED, "disarm: unknown alarm " + alarm.type(), e);
        }
        AlarmRequest request = AlarmRequest.newBuilder().setAction(AlarmRequest.AlarmAction.DEACTIVATE)
                .setMemberID(alarm.memberId()).setAlarm(type).build();
        onAnyMember("disarm " + alarm.type() + " of member " + Long.toHexString(alarm.memberId()), options.callTimeout(),
                (channel, deadline) -> MaintenanceGrpc.newBlockingStub(channel).withDeadline(deadline).alarm(request));
    }

    @Override
    public void compact(long revision) {
        CompactionRequest request = CompactionRequest.newBuilder().setRevision(revision).setPhysical(true).build();
        try {
            onAnyMember("compact to revision " + revision, options.reconfigurationDeadline(),
                    (channel, deadline) -> KVGrpc.newBlockingStub(channel).withDeadline(deadline).compact(request));
        } catch (EtcdAdminException e) {
            if (!EtcdErrors.says(e, COMPACTED)) {
                throw e;
            }
            LOG.debugf("revision %d was compacted already", revision);
        }
    }

    @Override
    public void defragment(String clientUrl) {
        onMember("defragment", clientUrl, options.reconfigurationDeadline(), (channel, deadline) -> MaintenanceGrpc
                .newBlockingStub(channel).withDeadline(deadline).defragment(DefragmentRequest.getDefaultInstance()));
    }

    @Override
    public void moveLeader(String leaderClientUrl, long targetId) {
        MoveLeaderRequest request = MoveLeaderRequest.newBuilder().setTargetID(targetId).build();
        onMember("move leadership to " + Long.toHexString(targetId), leaderClientUrl,
                (channel, deadline) -> MaintenanceGrpc.newBlockingStub(channel).withDeadline(deadline)
                        .moveLeader(request));
    }

    private static String alarmType(AlarmMember alarm) {
        return alarm.getAlarm() == AlarmType.UNRECOGNIZED ? "UNKNOWN(" + alarm.getAlarmValue() + ")"
                : alarm.getAlarm().name();
    }

    @Override
    public Member addMember(String peerUrl, boolean asLearner) {
        URI.create(Objects.requireNonNull(peerUrl, "peerUrl"));
        String what = "add " + (asLearner ? "learner " : "member ") + peerUrl;
        MemberAddRequest request = MemberAddRequest.newBuilder().addPeerURLs(peerUrl).setIsLearner(asLearner).build();
        boolean[] ambiguous = {false};
        return retrying(what, () -> {
            try {
                return member(onAnyMember(what, options.callTimeout(), (channel, deadline) -> ClusterGrpc
                        .newBlockingStub(channel).withDeadline(deadline).memberAdd(request),
                        () -> ambiguous[0] = true, true).getMember());
            } catch (EtcdAdminException e) {
                if (ambiguous[0] && EtcdErrors.says(e, "already exist")) {
                    // an earlier attempt that we could not see the end of did add it
                    Member added = members().stream().filter(m -> m.peerUrls().contains(peerUrl)).findFirst().orElseThrow(() -> e);
                    if (added.learner() == asLearner) {
                        return added;
                    }
                }
                ambiguous[0] |= EtcdErrors.says(e, "timed out") || unanswered(e);
                throw e;
            }
        });
    }

    @Override
    public void promote(long memberId) {
        String what = "promote member " + Long.toHexString(memberId);
        MemberRemoveRequest request = MemberRemoveRequest.newBuilder().setID(memberId).build();
        retrying(what, () -> {
            try {
                return onAnyMember(what, (channel, deadline) -> ClientCalls.blockingUnaryCall(channel, MEMBER_PROMOTE,
                        CallOptions.DEFAULT.withDeadline(deadline), request));
            } catch (EtcdAdminException e) {
                if (EtcdErrors.says(e, "can only promote a learner member")
                        && !EtcdErrors.says(e, "in sync")) {
                    boolean voter = members().stream().anyMatch(m -> m.id() == memberId && !m.learner());
                    if (voter) {
                        LOG.debugf("%s: already a voter", what);
                        return null;
                    }
                }
                throw e;
            }
        });
    }

    @Override
    public void removeMember(long memberId) {
        String what = "remove member " + Long.toHexString(memberId);
        MemberRemoveRequest request = MemberRemoveRequest.newBuilder().setID(memberId).build();
        retrying(what, () -> {
            try {
                return onAnyMember(what, (channel, deadline) -> ClusterGrpc.newBlockingStub(channel)
                        .withDeadline(deadline).memberRemove(request));
            } catch (EtcdAdminException e) {
                if (EtcdErrors.says(e, "member not found")) {
                    LOG.debugf("%s: not a member (any more)", what);
                    return null;
                }
                throw e;
            }
        });
    }

    @Override
    public void close() {
        channels.close();
    }

    @FunctionalInterface
    private interface MemberCall<T> {
        T call(ManagedChannel channel, io.grpc.Deadline deadline);
    }

    /** One call over the channel to exactly one member (see {@link MemberChannels}), bounded by the call timeout. */
    private <T> T onMember(String what, String clientUrl, MemberCall<T> call) {
        return onMember(what, clientUrl, options.callTimeout(), call);
    }

    private <T> T onMember(String what, String clientUrl, Duration timeout, MemberCall<T> call) {
        MemberChannels.Lease lease;
        try {
            lease = channels.lease(clientUrl);
        } catch (IllegalStateException closed) {
            throw new EtcdAdminException(EtcdAdminException.Kind.UNAVAILABLE, what + " at " + clientUrl + ": "
                    + closed.getMessage(), closed);
        } catch (IllegalArgumentException e) {
            throw new EtcdAdminException(EtcdAdminException.Kind.REJECTED, what + " at " + clientUrl + ": " + e.getMessage(), e);
        }
        boolean failed = true;
        try {
            T result = call.call(lease.channel(), io.grpc.Deadline.after(timeout.toMillis(), TimeUnit.MILLISECONDS));
            failed = false;
            return result;
        } catch (RuntimeException e) {
            // an answer from etcd (a learner refusing, say) leaves the channel as good as it was
            failed = !(e instanceof io.grpc.StatusRuntimeException s) || s.getStatus().getCode() == io.grpc.Status.Code.UNAVAILABLE
                    || s.getStatus().getCode() == io.grpc.Status.Code.DEADLINE_EXCEEDED;
            throw EtcdErrors.translate(what, clientUrl, timeout, e);
        } finally {
            channels.done(lease, failed);
        }
    }

    /**
     * The same call to each endpoint in turn, the one that answered last first, until one answers (an unreachable
     * one or a learner is skipped).
     */
    private <T> T onAnyMember(String what, MemberCall<T> call) {
        return onAnyMember(what, options.callTimeout(), call, () -> { }, false);
    }

    private <T> T onAnyMember(String what, Duration timeout, MemberCall<T> call) {
        return onAnyMember(what, timeout, call, () -> { }, false);
    }

    /**
     * @param onUnanswered   run when an endpoint let the call's deadline pass: it may have carried the call out
     * @param askEveryMember whether etcd's reconfiguration guard ("unhealthy cluster") at one member sends the call
     *                       to the next: each member judges by its own connections, and a member that joined last
     *                       has had them for the shortest time
     */
    private <T> T onAnyMember(String what, Duration timeout, MemberCall<T> call, Runnable onUnanswered,
            boolean askEveryMember) {
        EtcdAdminException last = null;
        for (String endpoint : order.next()) {
            try {
                T result = onMember(what, endpoint, timeout, call);
                order.answered(endpoint);
                return result;
            } catch (EtcdAdminException e) {
                // a learner refuses cluster calls (etcd 3.6 refuses a promotion sent to the learner itself): the
                // next endpoint may be a voter
                boolean guarded = askEveryMember && EtcdErrors.says(e, "unhealthy cluster");
                if (e.kind() != EtcdAdminException.Kind.UNAVAILABLE && !EtcdErrors.says(e, "not supported for learner")
                        && !guarded) {
                    throw e;
                }
                if (unanswered(e)) {
                    onUnanswered.run();
                }
                last = e;
            }
        }
        throw last;
    }

    private static boolean unanswered(EtcdAdminException e) {
        return e.kind() == EtcdAdminException.Kind.UNAVAILABLE && EtcdErrors.says(e, "no answer within");
    }

    /**
     * Repeats a reconfiguration while etcd says "not now" ({@link EtcdAdminException.Kind#NOT_READY}), with
     * exponential backoff, up to the deadline. While etcd's reconfiguration guard refuses ("unhealthy cluster"), the
     * pause is at most the guard backoff: the guard opens 5 s after the last voter connected, a moment the caller
     * cannot see, and each refused attempt costs etcd nothing. An unreachable cluster fails at once: the caller will
     * come back.
     */
    <T> T retrying(String what, Supplier<T> attempt) {
        long deadline = System.nanoTime() + options.reconfigurationDeadline().toNanos();
        Duration backoff = options.initialBackoff();
        int attempts = 0;
        long guardedSince = 0;
        while (true) {
            attempts++;
            try {
                return attempt.get();
            } catch (EtcdAdminException e) {
                boolean retriable = EtcdErrors.notReady(e);
                boolean guarded = EtcdErrors.says(e, GUARD_REFUSAL);
                Duration pause = guarded ? min(backoff, options.guardBackoff()) : backoff;
                long now = System.nanoTime();
                if (guarded && guardedSince == 0) {
                    guardedSince = now;
                }
                long left = deadline - now;
                if (retriable && guarded && now - guardedSince + pause.toNanos() > options.guardPatience().toNanos()) {
                    throw new EtcdAdminException(e.kind(), e.getMessage() + " (etcd's reconfiguration guard did not"
                            + " open within " + options.guardPatience().toSeconds() + " s: a voting member is down or"
                            + " cannot be reached; gave up after " + attempts + " attempts)", e.getCause());
                }
                if (!retriable || left <= pause.toNanos()) {
                    if (retriable && attempts > 1) {
                        throw new EtcdAdminException(e.kind(), e.getMessage() + " (gave up after " + attempts
                                + " attempts in " + options.reconfigurationDeadline().toSeconds() + " s)", e.getCause());
                    }
                    throw e;
                }
                LOG.debugf("%s: %s; retrying in %d ms", what, e.getMessage(), pause.toMillis());
                sleep(pause);
                backoff = min(backoff.multipliedBy(2), options.maxBackoff());
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdAdminException(EtcdAdminException.Kind.UNAVAILABLE, "interrupted while waiting to retry", e);
        }
    }

    private static long varint(UnknownFieldSet fields, int number) {
        if (!fields.hasField(number)) {
            return 0;
        }
        List<Long> values = fields.getField(number).getVarintList();
        return values.isEmpty() ? 0 : values.get(values.size() - 1);
    }

    static String text(UnknownFieldSet fields, int number) {
        if (!fields.hasField(number)) {
            return "";
        }
        List<com.google.protobuf.ByteString> values = fields.getField(number).getLengthDelimitedList();
        return values.isEmpty() ? "" : values.get(values.size() - 1).toStringUtf8();
    }

    private static Member member(io.etcd.jetcd.api.Member m) {
        return new Member(m.getID(), m.getName(), m.getPeerURLsList(), m.getClientURLsList(), m.getIsLearner());
    }
}
