package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.serve.Deadlines;
import io.github.leanscrape.serve.Scraper;
import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

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
 * endpoint exactly when Spring Boot would. Each choice the properties make is a bean with
 * its own condition: the direct renderer (else the reference renderer), gzip compression,
 * the starter's own metrics.
 *
 * @author leanscrape
 */
/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the leanscrape {@code prometheus} endpoint.
 * <p>
 * Ordered before Spring Boot's Prometheus export configuration, whose own endpoint bean
 * then backs off; its conditions are the same as Spring Boot's, so the starter serves the
 * endpoint exactly when Spring Boot would. What serves its scrapes is configured by
 * {@link LeanscrapeScrapeAutoConfiguration}, once the registries are known.
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
			PrometheusConfig prometheusConfig, Scraper leanscrapeScraper, Deadlines leanscrapeDeadlines) {
		return new LeanscrapeScrapeEndpoint(prometheusRegistry, prometheusConfig.prometheusProperties(),
				leanscrapeScraper, leanscrapeDeadlines);
	}

}
