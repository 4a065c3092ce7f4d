package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.endpoint.LeanscrapeEndpoint;
import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.endpoint.MicrometerScrapeMetrics;
import io.github.leanscrape.endpoint.ScrapeMetrics;
import io.github.leanscrape.endpoint.ScrapeTimeouts;
import io.github.leanscrape.exposition.ReferenceScrapeRenderer;
import io.github.leanscrape.exposition.ScrapeRenderer;
import io.github.leanscrape.exposition.direct.DirectTextRenderer;
import io.github.leanscrape.web.ScrapeResponder;
import io.github.leanscrape.exposition.Scraper;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

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
			PrometheusConfig prometheusConfig, Scraper leanscrapeScraper, ScrapeTimeouts leanscrapeTimeouts) {
		return new LeanscrapeScrapeEndpoint(prometheusRegistry, prometheusConfig.prometheusProperties(),
				leanscrapeScraper, leanscrapeTimeouts);
	}

	@Bean
	@ConditionalOnMissingBean
	ScrapeTimeouts leanscrapeTimeouts(LeanscrapeProperties properties) {
		return new ScrapeTimeouts(properties.getScrapeTimeout(), properties.getMaxScrapeTimeout());
	}

	@Bean
	@ConditionalOnMissingBean
	ScrapeResponder leanscrapeResponder(Scraper scraper, ScrapeTimeouts timeouts, LeanscrapeProperties properties,
			ObjectProvider<MeterRegistry> meterRegistry) {
		MeterRegistry registry = meterRegistry.getIfUnique();
		ScrapeMetrics metrics = (properties.getMetrics().isEnabled() && registry != null)
				? new MicrometerScrapeMetrics(registry, scraper) : ScrapeMetrics.NONE;
		return new ScrapeResponder(scraper, timeouts, metrics);
	}

	@Bean
	@ConditionalOnMissingBean
	ScrapeRenderer leanscrapeRenderer(PrometheusRegistry prometheusRegistry, PrometheusConfig prometheusConfig,
			ObjectProvider<PrometheusMeterRegistry> meterRegistry, LeanscrapeProperties properties) {
		return renderer(prometheusRegistry, meterRegistry.getIfUnique(), prometheusConfig, properties);
	}

	/**
	 * Create the renderer for the given settings, as this auto-configuration does: the
	 * direct path when it is enabled and the meter registry is the one behind the
	 * endpoint's registry, the reference path otherwise.
	 * @param prometheusRegistry the registry the endpoint scrapes
	 * @param meterRegistry the meter registry, if there is exactly one
	 * @param prometheusConfig the meter registry's configuration
	 * @param properties the settings
	 * @return the renderer
	 */
	public static ScrapeRenderer renderer(PrometheusRegistry prometheusRegistry,
			@Nullable PrometheusMeterRegistry meterRegistry, PrometheusConfig prometheusConfig,
			LeanscrapeProperties properties) {
		ReferenceScrapeRenderer reference = new ReferenceScrapeRenderer(prometheusRegistry,
				prometheusConfig.prometheusProperties());
		if (!properties.getDirect().isEnabled() || meterRegistry == null
				|| meterRegistry.getPrometheusRegistry() != prometheusRegistry) {
			return reference;
		}
		DirectTextRenderer direct = new DirectTextRenderer(meterRegistry, prometheusConfig,
				prometheusConfig.prometheusProperties(), reference);
		direct.cardinalityWarnThreshold(properties.getCardinality().getWarnThreshold());
		return direct;
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(LeanscrapeEndpoint.class)
	LeanscrapeEndpoint leanscrapeEndpoint(ScrapeRenderer renderer) {
		return new LeanscrapeEndpoint(renderer);
	}

	@Bean
	@ConditionalOnMissingBean
	Scraper leanscrapeScraper(ScrapeRenderer renderer, LeanscrapeProperties properties) {
		return scraper(renderer, properties);
	}

	/**
	 * Create the scraper for the given settings, as this auto-configuration does.
	 * @param renderer the renderer
	 * @param properties the settings
	 * @return the scraper
	 */
	public static Scraper scraper(ScrapeRenderer renderer, LeanscrapeProperties properties) {
		LeanscrapeProperties.Buffer buffer = properties.getBuffer();
		LeanscrapeProperties.Compression compression = properties.getCompression();
		return Scraper.create(renderer, buffer.getHeadroom().toBytes(), buffer.getMaxRetained().toBytes(),
				compression.isEnabled() ? compression.getLevel() : 0, properties.getMaxConcurrentRenders(),
				properties.getCache().getTimeToLive(), buffer.getMaxHeldBodies());
	}

}
