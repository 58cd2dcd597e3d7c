package dev.etcdoperator.k3s;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * Runs the k3s tier only where it can run: with Docker, and with the operator image to deploy, given as
 * {@code -Detcd-operator.k3s.image=NAME:TAG -Detcd-operator.k3s.image-tar=FILE} (the output of {@code docker save}).
 * Otherwise the tests are reported as skipped, with the reason, and the reason is printed.
 */
public class K3sTier implements ExecutionCondition {
    static final String IMAGE = "etcd-operator.k3s.image";
    static final String IMAGE_TAR = "etcd-operator.k3s.image-tar";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String image = System.getProperty(IMAGE, "");
        String tar = System.getProperty(IMAGE_TAR, "");
        if (image.isBlank() || tar.isBlank() || !Files.isRegularFile(Path.of(tar))) {
            return skip(context, "no operator image given: set -D" + IMAGE + "=NAME:TAG and -D" + IMAGE_TAR
                    + "=FILE (docker save NAME:TAG -o FILE); see .github/workflows/native-k3s.yml");
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return skip(context, "no Docker here: Testcontainers cannot start k3s");
        }
        return ConditionEvaluationResult.enabled("Docker and the operator image " + image + " are available");
    }

    private static ConditionEvaluationResult skip(ExtensionContext context, String reason) {
        String message = "k3s tier SKIPPED (" + context.getDisplayName() + "): " + reason;
        System.out.println(message);
        return ConditionEvaluationResult.disabled(message);
    }
}
