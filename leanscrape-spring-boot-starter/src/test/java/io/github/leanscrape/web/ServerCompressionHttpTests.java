package io.github.leanscrape.web;

import java.net.http.HttpResponse;

import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.ScrapeTestApplication;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the server's own compression on as well ({@code server.compression}), a body is
 * compressed once: by the starter when the request accepts gzip, by the server (or not at
 * all) when the starter's compression is off.
 */
class ServerCompressionHttpTests {

	@ParameterizedTest
	@CsvSource({ "servlet, true", "servlet, false", "reactive, true", "reactive, false" })
	void compressedOnce(String stack, boolean leanscrapeCompression) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ScrapeTestApplication.class)
			.properties("spring.main.web-application-type=" + stack, "server.port=0", "server.address=127.0.0.1",
					"management.endpoints.web.exposure.include=prometheus", "rich.bulk-series=2000",
					"server.compression.enabled=true", "server.compression.min-response-size=1",
					"server.compression.mime-types=text/plain,application/openmetrics-text",
					"leanscrape.compression.enabled=" + leanscrapeCompression)
			.run()) {
			HttpScraper http = new HttpScraper(
					Integer.parseInt(context.getEnvironment().getProperty("local.server.port")));
			HttpResponse<byte[]> response = http.get("/actuator/prometheus", "Accept-Encoding", "gzip");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().allValues("Content-Encoding")).containsExactly("gzip");
			byte[] expected = new PrometheusScrapeEndpoint(context.getBean(PrometheusRegistry.class),
					context.getBean(PrometheusConfig.class).prometheusProperties())
				.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null)
				.getBody();
			// Decompressed once, it is the plain body: it was not compressed twice.
			assertThat(HttpScraper.gunzip(response.body())).isEqualTo(expected);
		}
	}

}
