package io.github.leanscrape.web;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;

import io.github.leanscrape.support.HttpScraper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint over real HTTP with its body cache on, for an hour: what the cache holds
 * never costs a scrape its answer.
 */
abstract class AbstractCachedScrapeHttpTests {

	static final String PATH = "/actuator/prometheus";

	@LocalServerPort
	int serverPort;

	@Autowired
	PrometheusRegistry prometheusRegistry;

	@Autowired
	PrometheusConfig prometheusConfig;

	@Test
	void cachedBodiesOfOtherKindsNeverHoldBackAFullScrape() {
		HttpScraper http = new HttpScraper(this.serverPort);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(this.prometheusRegistry,
				this.prometheusConfig.prometheusProperties());
		String openMetrics = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100.getProducedMimeType().toString();
		// Small bodies first, as a scraper of a few families sends: the largest body
		// known is then small, and the full body far larger than the memory limit
		// expects.
		for (String query : new String[] { "?includedNames=none", "?includedNames=rich_requests" }) {
			HttpResponse<byte[]> filtered = http.get(PATH + query, "Accept", openMetrics);
			assertThat(filtered.statusCode()).isEqualTo(200);
		}
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			long start = System.nanoTime();
			HttpResponse<byte[]> full = http.get(PATH, "Accept", format.getProducedMimeType().toString());
			assertThat(full.statusCode()).as(format.name()).isEqualTo(200);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
			AbstractScrapeHttpTests.assertSameBody(full.body(), boot.scrape(format, (Set<String>) null).getBody(),
					format);
		}
	}

}
