package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.GzipEncoder;
import io.github.leanscrape.exposition.ReferenceScrapeRenderer;
import io.github.leanscrape.exposition.ScrapeRenderer;
import io.github.leanscrape.exposition.ScrapeSizeHints;
import io.github.leanscrape.exposition.direct.DirectTextRenderer;
import io.github.leanscrape.exposition.Scraper;
import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.ConditionalOnEnabledMetricsExport;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the leanscrape {@code prometheus} endpoint.
 * <p>
 * Ordered before Spring Boot's Prometheus export configuration, whose own endpoint bean
 * then backs off; its conditions are the same as Spring Boot's, so the starter serves the
 * endpoint exactly when Spring Boot would.
 *
 * @author leanscrape
 */
@AutoConfiguration(before = PrometheusMetricsExportAutoConfiguration.class, after = MetricsAutoConfiguration.class)
@ConditionalOnClass({ PrometheusScrapeEndpoint.class, PrometheusMeterRegistry.class })
@ConditionalOnBooleanProperty(name = "leanscrape.enabled", matchIfMissing = true)
@ConditionalOnBean(Clock.class)
@ConditionalOnEnabledMetricsExport("prometheus")
@ConditionalOnAvailableEndpoint(PrometheusScrapeEndpoint.class)
@EnableConfigurationProperties(LeanscrapeProperties.class)
public final class LeanscrapeAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(PrometheusScrapeEndpoint.class)
	LeanscrapeScrapeEndpoint prometheusEndpoint(PrometheusRegistry prometheusRegistry,
			PrometheusConfig prometheusConfig, Scraper leanscrapeScraper) {
		return new LeanscrapeScrapeEndpoint(prometheusRegistry, prometheusConfig.prometheusProperties(),
				leanscrapeScraper);
	}

	@Bean
	@ConditionalOnMissingBean
	ScrapeRenderer leanscrapeRenderer(PrometheusRegistry prometheusRegistry, PrometheusConfig prometheusConfig,
			ObjectProvider<PrometheusMeterRegistry> meterRegistry, LeanscrapeProperties properties) {
		ReferenceScrapeRenderer reference = new ReferenceScrapeRenderer(prometheusRegistry,
				prometheusConfig.prometheusProperties());
		PrometheusMeterRegistry registry = meterRegistry.getIfUnique();
		if (!properties.getDirect().isEnabled() || registry == null
				|| registry.getPrometheusRegistry() != prometheusRegistry) {
			// The direct path writes what the endpoint's registry holds; anything else is
			// left to the reference path.
			return reference;
		}
		return new DirectTextRenderer(registry, prometheusConfig, prometheusConfig.prometheusProperties(),
				reference);
	}

	@Bean
	@ConditionalOnMissingBean
	Scraper leanscrapeScraper(ScrapeRenderer renderer, LeanscrapeProperties properties) {
		LeanscrapeProperties.Buffer buffer = properties.getBuffer();
		ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, buffer.getMaxRetained().toBytes());
		ScrapeSizeHints sizeHints = new ScrapeSizeHints(pool, buffer.getHeadroom().toBytes());
		LeanscrapeProperties.Compression compression = properties.getCompression();
		GzipEncoder gzip = compression.isEnabled() ? new GzipEncoder(pool, compression.getLevel()) : null;
		return new Scraper(renderer, pool, sizeHints, gzip);
	}

}
