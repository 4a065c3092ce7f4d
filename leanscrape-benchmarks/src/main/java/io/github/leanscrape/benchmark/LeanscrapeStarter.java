package io.github.leanscrape.benchmark;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.exposition.direct.DirectRenderer;
import io.github.leanscrape.exposition.direct.RenderStatistics;
import io.github.leanscrape.metrics.MicrometerSelfMetrics;
import io.github.leanscrape.serve.ScrapeResponder;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.serve.SelfMetrics;
import io.github.leanscrape.support.StarterContext;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The starter's scrape objects, built by its auto-configuration with the default
 * {@link io.github.leanscrape.autoconfigure.LeanscrapeProperties}, around the registry a
 * benchmark scrapes.
 *
 * @param pool the pool of output chunks
 * @param sizeHints the size hints of each kind of scrape
 * @param scraper the scraper
 * @param endpoint the endpoint, as the web layer calls it
 * @param responder the responder, as the message writers call it, with the starter's
 * metrics
 * @param renderer the direct renderer, which counts the blocks of series it copied from
 * the last body of their kind, or {@code null} when the direct path is off
 * @author leanscrape
 */
record LeanscrapeStarter(ChunkPool pool, SizeHints sizeHints, Scraper scraper, LeanscrapeScrapeEndpoint endpoint,
		ScrapeResponder responder, @Nullable DirectRenderer renderer) {

	/**
	 * Build the starter's objects for a registry.
	 * @param meterRegistry the registry to scrape
	 * @param config the registry's configuration
	 * @param properties the starter's properties that differ from their defaults, as
	 * {@code name=value}
	 * @return the objects
	 */
	static LeanscrapeStarter create(PrometheusMeterRegistry meterRegistry, PrometheusConfig config,
			String... properties) {
		// Not closed: the objects live as long as the benchmark's JVM.
		StarterContext context = StarterContext.start(meterRegistry, config,
				new Class<?>[] { OwnMetricsRegistry.class }, properties);
		return new LeanscrapeStarter(context.bean(ChunkPool.class), context.bean(SizeHints.class),
				context.bean(Scraper.class), context.bean(LeanscrapeScrapeEndpoint.class),
				context.bean(ScrapeResponder.class), directRenderer(context));
	}

	private static @Nullable DirectRenderer directRenderer(StarterContext context) {
		try {
			return context.bean(DirectRenderer.class);
		}
		catch (NoSuchBeanDefinitionException ex) {
			// The direct path is off: the reference path renders, copying nothing.
			return null;
		}
	}

	/**
	 * The starter's own metrics, in a registry of their own, so that the scraped registry
	 * keeps exactly its synthetic series.
	 */
	@Configuration(proxyBeanMethods = false)
	static class OwnMetricsRegistry {

		@Bean
		SelfMetrics benchmarkScrapeMetrics(Scraper scraper, ChunkPool pool,
				ObjectProvider<RenderStatistics> statistics) {
			return new MicrometerSelfMetrics(
					new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), new FixedClock()),
					scraper, pool, statistics.getIfAvailable());
		}

	}

}
