package dev.etcdoperator.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

/** The operator's HTTP port speaks HTTP/1.1 only: a client that offers an upgrade to HTTP/2 is answered in 1.1. */
@QuarkusTest
@WithKubernetesTestServer
class OperatorHttpServerTest {
    @TestHTTPResource("/q/health/live")
    URI live;

    @Test
    void anOfferToUpgradeToHttp2IsAnsweredInHttp11() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(live).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        }
    }
}
