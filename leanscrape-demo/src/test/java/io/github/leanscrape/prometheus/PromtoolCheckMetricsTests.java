package io.github.leanscrape.prometheus;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

import io.github.leanscrape.demo.DemoApplication;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code promtool check metrics} finds nothing wrong with the text format of the demo
 * application that it does not also find in Spring Boot's own endpoint's output for the
 * same registry.
 *
 * @author leanscrape
 */
@Tag(PrometheusTests.TAG)
class PromtoolCheckMetricsTests {

	@Test
	void reportsNoProblemThatSpringBootsOutputDoesNotHave(@TempDir Path directory) throws Exception {
		try (ConfigurableApplicationContext context = DemoApplication.application()
			.run("--server.port=0", "--server.address=127.0.0.1", "--demo.series=2000",
					"--spring.main.banner-mode=off")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			HttpResponse<byte[]> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
					.header("Accept", "text/plain")
					.timeout(Duration.ofSeconds(30))
					.build(), HttpResponse.BodyHandlers.ofByteArray());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type"))
				.hasValueSatisfying((contentType) -> assertThat(contentType).startsWith("text/plain;version=0.0.4"));
			// Spring Boot's endpoint on the same registry, after the request: meters are
			// only ever added, so it has every family the response had.
			PrometheusScrapeEndpoint reference = new PrometheusScrapeEndpoint(context.getBean(PrometheusRegistry.class),
					context.getBean(PrometheusConfig.class).prometheusProperties());
			byte[] expected = reference.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null).getBody();
			assertThat(expected).isNotNull();
			Promtool.Result ours = Promtool.checkMetrics(response.body(), directory, "leanscrape");
			Promtool.Result boots = Promtool.checkMetrics(expected, directory, "spring-boot");
			assertThat(boots.exitCode()).as("promtool on Spring Boot's output: %s", boots.lines())
				.isIn(Promtool.Result.CLEAN, Promtool.Result.LINT_PROBLEMS);
			assertThat(ours.exitCode()).as("promtool on the response: %s", ours.lines())
				.isIn(Promtool.Result.CLEAN, boots.exitCode());
			Set<String> extra = new TreeSet<>(ours.lines());
			extra.removeAll(boots.lines());
			assertThat(extra).as("problems reported for the response only").isEmpty();
		}
	}

}
