package io.github.leanscrape.benchmark;

import io.github.leanscrape.autoconfigure.LeanscrapeAutoConfiguration;
import io.github.leanscrape.autoconfigure.LeanscrapeProperties;
import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.endpoint.MicrometerScrapeMetrics;
import io.github.leanscrape.endpoint.ScrapeMetrics;
import io.github.leanscrape.endpoint.ScrapeTimeouts;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ScrapeRenderer;
import io.github.leanscrape.exposition.ScrapeSizeHints;
import io.github.leanscrape.exposition.Scraper;
import io.github.leanscrape.web.ScrapeResponder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The starter's scrape objects, built as {@code LeanscrapeAutoConfiguration} builds its
 * beans with the default {@link LeanscrapeProperties}. {@link #create} is the one place
 * that knows how: when the auto-configuration changes (another renderer, other
 * collaborators), only it changes.
 *
 * @param pool the pool of output chunks
 * @param sizeHints the size hints of each kind of scrape
 * @param scraper the scraper
 * @param endpoint the endpoint, as the web layer calls it
 * @param responder the responder, as the message writers call it, with the starter's
 * metrics
 * @author leanscrape
 */
record LeanscrapeStarter(ChunkPool pool, ScrapeSizeHints sizeHints, Scraper scraper,
		LeanscrapeScrapeEndpoint endpoint, ScrapeResponder responder) {

	/**
	 * Build the starter's objects for a registry.
	 * @param meterRegistry the registry to scrape
	 * @param config the registry's configuration
	 * @return the objects
	 */
	static LeanscrapeStarter create(PrometheusMeterRegistry meterRegistry, PrometheusConfig config) {
		LeanscrapeProperties properties = new LeanscrapeProperties();
		PrometheusRegistry prometheusRegistry = meterRegistry.getPrometheusRegistry();
		ScrapeRenderer renderer = LeanscrapeAutoConfiguration.renderer(prometheusRegistry, meterRegistry, config,
				properties);
		Scraper scraper = LeanscrapeAutoConfiguration.scraper(renderer, properties);
		LeanscrapeScrapeEndpoint endpoint = new LeanscrapeScrapeEndpoint(prometheusRegistry,
				config.prometheusProperties(), scraper, new ScrapeTimeouts(properties.getScrapeTimeout(),
						properties.getMaxScrapeTimeout()));
		// The starter's own metrics go to a registry of their own, so that the scraped
		// registry keeps exactly its synthetic series.
		ScrapeMetrics metrics = new MicrometerScrapeMetrics(
				new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), new FixedClock()),
				scraper);
		ScrapeResponder responder = new ScrapeResponder(scraper, endpoint.timeouts(), metrics);
		return new LeanscrapeStarter(scraper.pool(), scraper.sizeHints(), scraper, endpoint, responder);
	}

}
