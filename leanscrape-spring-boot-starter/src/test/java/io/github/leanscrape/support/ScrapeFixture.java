package io.github.leanscrape.support;

import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.serve.Scraper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

/**
 * A registry with the {@link RichMeters}, Spring Boot's endpoint and the starter's on it,
 * the starter's built by its auto-configuration.
 */
public final class ScrapeFixture implements AutoCloseable {

	private final PrometheusMeterRegistry meterRegistry;

	private final RichMeters meters;

	private final PrometheusScrapeEndpoint bootEndpoint;

	private final StarterContext starter;

	private ScrapeFixture(PrometheusMeterRegistry meterRegistry, int bulkSeries) {
		this.meterRegistry = meterRegistry;
		RichMeters.configure(meterRegistry);
		this.meters = RichMeters.register(meterRegistry, bulkSeries);
		PrometheusRegistry prometheusRegistry = meterRegistry.getPrometheusRegistry();
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		this.bootEndpoint = new PrometheusScrapeEndpoint(prometheusRegistry, properties);
		this.starter = StarterContext.start(meterRegistry, PrometheusConfig.DEFAULT);
	}

	/**
	 * Create a fixture on a new registry with a frozen clock.
	 * @param bulkSeries extra plain series
	 * @return the fixture
	 */
	public static ScrapeFixture create(int bulkSeries) {
		return new ScrapeFixture(
				new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), new FrozenClock()),
				bulkSeries);
	}

	public PrometheusMeterRegistry meterRegistry() {
		return this.meterRegistry;
	}

	public RichMeters meters() {
		return this.meters;
	}

	public LeanscrapeScrapeEndpoint endpoint() {
		return this.starter.bean(LeanscrapeScrapeEndpoint.class);
	}

	public ChunkPool pool() {
		return this.starter.bean(ChunkPool.class);
	}

	/**
	 * Drop the bodies the scraper keeps between scrapes to reuse what did not change.
	 */
	public void forgetKeptBodies() {
		this.starter.bean(Scraper.class).forgetKept();
	}

	@Override
	public void close() {
		this.starter.close();
	}

	/**
	 * Spring Boot's answer for the same registry.
	 * @param format the format
	 * @param includedNames the name filter
	 * @return Spring Boot's body
	 */
	public byte[] bootBody(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		return this.bootEndpoint.scrape(format, includedNames).getBody();
	}

}
