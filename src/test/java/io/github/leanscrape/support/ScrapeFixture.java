package io.github.leanscrape.support;

import java.time.Duration;
import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.autoconfigure.LeanscrapeAutoConfiguration;
import io.github.leanscrape.autoconfigure.LeanscrapeProperties;
import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.endpoint.ScrapeTimeouts;
import io.github.leanscrape.exposition.ReferenceScrapeRenderer;
import io.github.leanscrape.exposition.ScrapeRenderer;
import io.github.leanscrape.exposition.Scraper;
import io.github.leanscrape.exposition.direct.DirectTextRenderer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

/**
 * A registry with the {@link RichMeters}, Spring Boot's endpoint and the starter's on it.
 */
public final class ScrapeFixture {

	private final PrometheusMeterRegistry meterRegistry;

	private final RichMeters meters;

	private final PrometheusScrapeEndpoint bootEndpoint;

	private final LeanscrapeScrapeEndpoint endpoint;

	private final DirectTextRenderer renderer;

	private ScrapeFixture(PrometheusMeterRegistry meterRegistry, int bulkSeries) {
		this.meterRegistry = meterRegistry;
		RichMeters.configure(meterRegistry);
		this.meters = RichMeters.register(meterRegistry, bulkSeries);
		PrometheusRegistry prometheusRegistry = meterRegistry.getPrometheusRegistry();
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		this.bootEndpoint = new PrometheusScrapeEndpoint(prometheusRegistry, properties);
		this.renderer = new DirectTextRenderer(meterRegistry, PrometheusConfig.DEFAULT, properties,
				new ReferenceScrapeRenderer(prometheusRegistry, properties));
		this.endpoint = new LeanscrapeScrapeEndpoint(prometheusRegistry, properties, scraper(this.renderer),
				new ScrapeTimeouts(Duration.ofSeconds(10), Duration.ofMinutes(1)));
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

	/**
	 * A scraper as the auto-configuration builds it, with default settings.
	 * @param renderer the renderer
	 * @return the scraper
	 */
	public static Scraper scraper(ScrapeRenderer renderer) {
		return LeanscrapeAutoConfiguration.scraper(renderer, new LeanscrapeProperties());
	}

	public PrometheusMeterRegistry meterRegistry() {
		return this.meterRegistry;
	}

	public RichMeters meters() {
		return this.meters;
	}

	public DirectTextRenderer renderer() {
		return this.renderer;
	}

	public LeanscrapeScrapeEndpoint endpoint() {
		return this.endpoint;
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
