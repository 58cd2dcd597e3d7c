package dev.etcdoperator.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The sandbox makes the operator's class-data archive with the image's own command, on its own paths. */
class ImageClassDataArchiveTest {

    @Test
    void theImagesCommandIsReadFromTheDockerfileAndItsPathsAreThePackagedOperatorsHere() throws Exception {
        List<String> image = ImageClassDataArchive.imageCommand(ImageJavaOptions.dockerfileLines());
        assertThat(image).containsExactly("-XX:ArchiveClassesAtExit=/deployments/operator.jsa",
                "-Dquarkus.appcds.generate=true", "-jar", "/deployments/quarkus-run.jar");
        Path app = Path.of("/work/app");
        assertThat(ImageClassDataArchive.local(image, app)).containsExactly(
                "-XX:ArchiveClassesAtExit=/work/app/operator.jsa", "-Dquarkus.appcds.generate=true", "-jar",
                "/work/app/quarkus-run.jar");
        assertThat(ImageClassDataArchive.imageCommand(List.of("FROM x", "RUN java -version"))).isEmpty();
    }

    @Test
    void theArchiveUsedIsTheLastOneTheOptionsName() {
        assertThat(ImageClassDataArchive.used(List.of("-Xss512k", "-XX:SharedArchiveFile=/a.jsa",
                "-XX:SharedArchiveFile=/b.jsa"))).contains(Path.of("/b.jsa"));
        assertThat(ImageClassDataArchive.used(List.of("-Xss512k"))).isEmpty();
    }
}
