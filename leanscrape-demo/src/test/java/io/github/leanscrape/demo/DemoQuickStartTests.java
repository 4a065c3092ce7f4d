package io.github.leanscrape.demo;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import io.github.leanscrape.support.HttpScraper;
import io.github.leanscrape.support.RawOutput;
import org.junit.jupiter.api.Test;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What README's quick start shows of the demo application: after a few scrapes, the
 * cardinality report ({@code /actuator/leanscrape}, exposed next to the scrape) and the
 * starter's own metrics. The responses are written to
 * {@code target/raw/demo-quick-start.txt}.
 */
class DemoQuickStartTests {

	private static final String OWN_METRICS = "/actuator/prometheus?includedNames=leanscrape_scrapes,"
			+ "leanscrape_scrape_duration_seconds,leanscrape_scrape_body_bytes_max,"
			+ "leanscrape_scrape_sent_bytes_max,leanscrape_buffer_retained_bytes";

	@Test
	void demoShowsTheCardinalityReportAndTheStartersOwnMetrics() throws Exception {
		try (ConfigurableApplicationContext context = DemoApplication.application()
			.run("--server.port=0", "--spring.main.banner-mode=off")) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			HttpScraper http = new HttpScraper(port);
			for (int i = 0; i < 3; i++) {
				assertThat(http.get("/actuator/prometheus", "Accept", "application/openmetrics-text").statusCode())
					.isEqualTo(200);
			}
			assertThat(http.get("/actuator/prometheus", "Accept-Encoding", "gzip").statusCode()).isEqualTo(200);
			HttpResponse<byte[]> report = http.get("/actuator/leanscrape");
			assertThat(report.statusCode()).isEqualTo(200);
			String reportBody = new String(report.body(), StandardCharsets.UTF_8);
			assertThat(reportBody).contains("\"families\"", "\"renderer\":\"direct\"");
			HttpResponse<byte[]> own = http.get(OWN_METRICS);
			assertThat(own.statusCode()).isEqualTo(200);
			String ownBody = new String(own.body(), StandardCharsets.UTF_8);
			assertThat(ownBody).contains("leanscrape_scrapes_total{format=\"openmetrics\",outcome=\"ok\"}");
			RawOutput raw = new RawOutput();
			raw.printf("$ curl -s http://127.0.0.1:8080/actuator/leanscrape%n%s%n", reportBody);
			raw.printf("$ curl -s 'http://127.0.0.1:8080%s'%n%s", OWN_METRICS, ownBody);
			raw.write("demo-quick-start", "./mvnw -B verify -Dtest=DemoQuickStartTests");
		}
	}

}
