package io.github.leanscrape.security;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.support.BootWiringTests;
import io.github.leanscrape.support.HttpScraper;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With Spring Security in front of actuator endpoints, the starter's endpoint is exactly
 * as protected as Spring Boot's, and its glue runs only for requests security let
 * through.
 */
@Tag(BootWiringTests.TAG)
abstract class AbstractSecuredScrapeTests {

	static final String PATH = "/actuator/prometheus";

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meterRegistry;

	@Autowired
	PrometheusRegistry prometheusRegistry;

	@Autowired
	PrometheusConfig prometheusConfig;

	@Autowired
	LeanscrapeScrapeEndpoint endpoint;

	@Autowired
	ChunkPool pool;

	@Autowired
	Scraper scraper;

	HttpScraper http;

	@BeforeEach
	void setUp() {
		this.http = new HttpScraper(this.port);
	}

	/**
	 * A scrape is counted once its response is written, before its body goes back to the
	 * pool: with every chunk back, no scrape of this test is still to be counted when the
	 * next one reads the count.
	 */
	@AfterEach
	void everyBodyBackInThePool() {
		ChunkPool pool = this.pool;
		// Every chunk is back but those the encoders keep to reuse unchanged segments.
		Scraper scraper = this.scraper;
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(pool.chunksInUse()).isEqualTo(scraper.keptChunks()));
		scraper.forgetKept();
		assertThat(pool.chunksInUse()).isZero();
	}

	static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void withoutCredentials401() {
		assertThat(this.http.get(PATH).statusCode()).isEqualTo(401);
	}

	@Test
	void withWrongCredentials401() {
		assertThat(this.http.get(PATH, "Authorization", basic("scraper", "wrong")).statusCode()).isEqualTo(401);
	}

	@Test
	void withCredentials200AndSpringBootsBytes() {
		HttpResponse<byte[]> response = this.http.get(PATH, "Authorization",
				basic(SecuredScrapeApplication.USER, SecuredScrapeApplication.PASSWORD), "Accept-Encoding", "gzip");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
		byte[] expected = new PrometheusScrapeEndpoint(this.prometheusRegistry,
				this.prometheusConfig.prometheusProperties())
			.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null)
			.getBody();
		// The starter's own meters count this scrape after it was sent: compare the rest.
		assertThat(withoutOwnMeters(HttpScraper.gunzip(response.body()))).isEqualTo(withoutOwnMeters(expected));
	}

	@Test
	void glueDoesNotRunBeforeSecurityDecides() {
		double scrapes = scrapesCounted();
		// Every format ruled out: the starter's filter would answer 406, security answers
		// first.
		HttpResponse<byte[]> response = this.http.get(PATH, "Accept", "text/plain;q=0", "Accept-Encoding", "gzip",
				"X-Prometheus-Scrape-Timeout-Seconds", "0.001");
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("Content-Encoding")).isEmpty();
		assertThat(scrapesCounted()).isEqualTo(scrapes);
	}

	@Test
	void glueRunsAfterSecurityLetTheRequestThrough() {
		HttpResponse<byte[]> response = this.http.get(PATH, "Authorization",
				basic(SecuredScrapeApplication.USER, SecuredScrapeApplication.PASSWORD), "Accept", "text/plain;q=0");
		assertThat(response.statusCode()).isEqualTo(406);
	}

	private double scrapesCounted() {
		return this.meterRegistry.find("leanscrape.scrapes").counters().stream().mapToDouble((c) -> c.count()).sum();
	}

	private static String withoutOwnMeters(byte[] body) {
		StringBuilder kept = new StringBuilder();
		for (String line : new String(body, StandardCharsets.UTF_8).split("\n")) {
			if (!line.contains("leanscrape_")) {
				kept.append(line).append('\n');
			}
		}
		return kept.toString();
	}

}
