package dev.etcdoperator.helm;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * THE table of what the operator may do: every API call the code makes, and nothing else. The chart's RBAC must
 * grant exactly this; extend it here (with the reason) when the code starts calling something new.
 */
final class OperatorPermissions {
    static final String CRD_GROUP = "etcd.database.coreos.com";

    record Permission(String group, String resource, List<String> verbs, String why) {
        Permission(String group, String resource, String verbs, String why) {
            this(group, resource, List.of(verbs.split(" ")), why);
        }
    }

    /** Granted in each watched namespace (by a Role there, or cluster-wide by a ClusterRole). */
    static final List<Permission> WATCHED_NAMESPACES = List.of(
            new Permission(CRD_GROUP, "etcdclusters", "get list watch", "the etcdcluster controller's informer"),
            new Permission(CRD_GROUP, "etcdclusters", "create delete", "a restore rebuilds the cluster it names"),
            new Permission(CRD_GROUP, "etcdclusters", "update", "a restore marks the template it is about to replace"),
            new Permission(CRD_GROUP, "etcdclusters", "patch", "a reseed request (annotation) removed once acted on"),
            new Permission(CRD_GROUP, "etcdbackups", "get list watch", "the etcdbackup controller's informer"),
            new Permission(CRD_GROUP, "etcdrestores", "get list watch", "the etcdrestore controller's informer"),
            new Permission(CRD_GROUP, "etcdrestores", "create", "quorum-loss policy FromBackup restores the cluster"),
            new Permission(CRD_GROUP, "etcdrestores", "patch", "the controller's finalizer: a restore deleted after it"
                    + " deleted its template first creates the restored cluster"),
            new Permission(CRD_GROUP, "etcdclusters/finalizers", "update", "the cluster's pods, Services, claims and"
                    + " budget block its deletion until they are gone (admission OwnerReferencesPermissionEnforcement)"),
            new Permission(CRD_GROUP, "etcdclusters/status", "patch", "UpdateControl.patchStatus"),
            new Permission(CRD_GROUP, "etcdbackups/status", "patch", "UpdateControl.patchStatus"),
            new Permission(CRD_GROUP, "etcdrestores/status", "patch", "UpdateControl.patchStatus"),
            new Permission("", "pods", "get list watch", "the member-pods informer; pod edit reads first"),
            new Permission("", "pods", "create delete patch", "members created, replaced, upgraded (image edit)"),
            new Permission("", "services", "get create", "the client and peer Services"),
            new Permission("", "services", "list watch", "the cluster-services informer: a deleted Service is made again at once"),
            new Permission("", "persistentvolumeclaims", "get list create delete", "members on claims"),
            new Permission("", "secrets", "get", "TLS secrets; S3 credentials"),
            new Permission("", "secrets", "create update delete", "a restore's Secret with the snapshot's presigned URL, deleted when the restore ends"),
            new Permission("", "events", "create", "EventRecorder"),
            new Permission("", "events", "patch", "EventRecorder: the count of a repeated Event"),
            new Permission("policy", "poddisruptionbudgets", "get create update", "one budget per cluster"));

    /** Granted in the release namespace only, when leader election is on. */
    static final List<Permission> LEADER_ELECTION = List.of(
            new Permission("coordination.k8s.io", "leases", "get create update patch",
                    "the leader's Lease (the elector renews it with a PATCH)"));

    /** "scope group/resource verb" for each verb of the table, scope being a namespace or "*" for cluster-wide. */
    static Set<String> grants(String scope, List<Permission> table) {
        Set<String> grants = new TreeSet<>();
        for (Permission p : table) {
            p.verbs().forEach(verb -> grants.add(grant(scope, p.group(), p.resource(), verb)));
        }
        return grants;
    }

    static String grant(String scope, String group, String resource, String verb) {
        return scope + " " + (group.isEmpty() ? "core" : group) + "/" + resource + " " + verb;
    }

    private OperatorPermissions() {
    }
}
