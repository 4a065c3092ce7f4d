package io.github.leanscrape.prometheus;

import java.nio.file.Path;
import java.time.Duration;

import io.github.leanscrape.support.HttpScraper;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A second real scraper, VictoriaMetrics, with its own HTTP client and its own parser of
 * the exposition formats, scrapes the demo application in text 0.0.4 (what it asks for)
 * and in OpenMetrics (asked for through its scrape configuration), with gzip, and stores
 * exactly what Spring Boot's endpoint writes: the target is up, the known values are the
 * demo's, and the demo's series, counted and summed, are those of Spring Boot's endpoint
 * in the same format from the same registry.
 *
 * @author leanscrape
 */
@Tag(VictoriaMetricsTests.TAG)
class VictoriaMetricsScrapeIntegrationTests {

	private static final Duration TARGET_UP_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration STORED_TIMEOUT = Duration.ofSeconds(20);

	private static final String DEMO_SERIES = "{__name__=~\"demo_.+\",job=\"" + ScrapingServer.JOB + "\"}";

	private static final String DEMO_COUNTERS = "{__name__=~\"demo_.+_total\",job=\"" + ScrapingServer.JOB + "\"}";

	private static @Nullable RunningDemo demo;

	private static int port;

	@BeforeAll
	static void startDemo() {
		RunningDemo started = RunningDemo.start(2000, new Class<?>[0], "--demo.reference-endpoint=true");
		demo = started;
		port = started.port();
	}

	@AfterAll
	static void stopDemo() {
		if (demo != null) {
			demo.close();
		}
	}

	@ParameterizedTest
	@EnumSource
	void victoriaMetricsStoresWhatSpringBootsEndpointWrites(ScrapeFormat format, @TempDir Path directory)
			throws Exception {
		Exposition reference = Exposition
			.of(new HttpScraper(port).get("/reference/prometheus?format=" + format.springBootFormat.name()).body());
		try (ScrapingServer victoriaMetrics = ScrapingServer.victoriaMetrics(directory, port, format.accept)) {
			JsonNode target = victoriaMetrics.awaitTargetUp(TARGET_UP_TIMEOUT);
			assertThat(target.path("lastError").asString()).isEmpty();
			StoredDemoValues stored = new StoredDemoValues(victoriaMetrics);
			stored.assertKnownValues();
			assertThat(stored.awaitQuery("count(" + DEMO_SERIES + ")", reference.series("demo_"), STORED_TIMEOUT))
				.as("demo series")
				.isEqualTo(reference.series("demo_"));
			assertThat(
					stored.awaitQuery("sum(" + DEMO_COUNTERS + ")", reference.sum("demo_", "_total"), STORED_TIMEOUT))
				.as("sum of the demo's counters")
				.isEqualTo(reference.sum("demo_", "_total"));
			assertThat(stored.value("leanscrape_fallbacks_total{scope=\"scrape\"}")).isZero();
		}
	}

	/**
	 * What VictoriaMetrics asks for: its own default, and OpenMetrics as Prometheus asks.
	 */
	enum ScrapeFormat {

		/**
		 * VictoriaMetrics's own request:
		 * {@code text/plain;version=0.0.4;q=1,*}{@code /*;q=0.1}.
		 */
		TEXT(null, PrometheusOutputFormat.CONTENT_TYPE_004),

		/**
		 * OpenMetrics, as Prometheus asks for it first.
		 */
		OPENMETRICS("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5",
				PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100);

		private final @Nullable String accept;

		private final PrometheusOutputFormat springBootFormat;

		ScrapeFormat(@Nullable String accept, PrometheusOutputFormat springBootFormat) {
			this.accept = accept;
			this.springBootFormat = springBootFormat;
		}

	}

}
