package dev.etcdoperator.helm;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;

/** What a rendered chart lets a service account do, in the same "scope group/resource verb" form as the table. */
final class GrantedPermissions {
    private GrantedPermissions() {
    }

    static Set<String> of(RenderedChart chart, String serviceAccount, String namespace) {
        Set<String> grants = new TreeSet<>();
        for (ClusterRoleBinding binding : chart.all(ClusterRoleBinding.class)) {
            if (binds(binding.getSubjects(), serviceAccount, namespace)) {
                grants.addAll(expand("*", rulesOf(chart, binding.getRoleRef(), null)));
            }
        }
        for (RoleBinding binding : chart.all(RoleBinding.class)) {
            if (binds(binding.getSubjects(), serviceAccount, namespace)) {
                String scope = binding.getMetadata().getNamespace();
                grants.addAll(expand(scope, rulesOf(chart, binding.getRoleRef(), scope)));
            }
        }
        return grants;
    }

    private static boolean binds(List<Subject> subjects, String serviceAccount, String namespace) {
        return subjects != null && subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind())
                && serviceAccount.equals(s.getName()) && namespace.equals(s.getNamespace()));
    }

    private static List<PolicyRule> rulesOf(RenderedChart chart, RoleRef ref, String namespace) {
        if ("ClusterRole".equals(ref.getKind())) {
            return chart.all(ClusterRole.class).stream().filter(r -> ref.getName().equals(r.getMetadata().getName()))
                    .findFirst().orElseThrow(() -> new AssertionError("no ClusterRole " + ref.getName()))
                    .getRules();
        }
        return chart.all(Role.class).stream().filter(r -> ref.getName().equals(r.getMetadata().getName())
                && namespace.equals(r.getMetadata().getNamespace()))
                .findFirst().orElseThrow(() -> new AssertionError("no Role " + namespace + "/" + ref.getName()))
                .getRules();
    }

    private static Set<String> expand(String scope, List<PolicyRule> rules) {
        Set<String> grants = new TreeSet<>();
        for (PolicyRule rule : rules) {
            if (rule.getResourceNames() != null && !rule.getResourceNames().isEmpty()) {
                throw new AssertionError("resourceNames are not expected: " + rule);
            }
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    for (String verb : rule.getVerbs()) {
                        grants.add(OperatorPermissions.grant(scope, group, resource, verb));
                    }
                }
            }
        }
        return grants;
    }
}
