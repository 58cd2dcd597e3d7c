package dev.etcdoperator.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The pure core decides; it does no I/O and knows neither fabric8 nor the Java Operator SDK. */
class LayeringTest {
    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.etcdoperator");

    @Test
    void theCoreStaysPure() {
        noClasses().that().resideInAPackage("dev.etcdoperator.core..")
                .should().dependOnClassesThat().resideInAnyPackage("io.fabric8..", "io.javaoperatorsdk..",
                        "io.etcd..", "software.amazon..", "io.quarkus..", "io.micrometer..", "jakarta..",
                        "java.net.http..", "java.nio.file..")
                .check(PRODUCTION);
    }

    @Test
    void productionCodeNeverUsesTheSandbox() {
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.etcdoperator.sandbox..")
                .check(PRODUCTION);
    }
}
